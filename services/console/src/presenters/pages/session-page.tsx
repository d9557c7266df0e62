import type { PresentationResponse } from '@tessera/contracts';
import type { ServiceProblem } from '../../domain/service-problem.js';
import type { SessionView } from '../../use-cases/load-session.js';
import { scriptPath } from '../asset-paths.js';
import { Facts, Time } from '../components/display.js';
import { Layout } from '../components/layout.js';
import { SessionLive } from '../components/session-live.js';
import type { PageContext } from '../page-context.js';

export function SessionPage(props: {
  context: PageContext;
  orgId: string;
  view: SessionView;
  /** The claims, when the person asked to read them (a POST), or why they could not be read. */
  claims?: { response?: PresentationResponse; problem?: ServiceProblem };
}) {
  const { context, orgId, view } = props;
  const { session } = view;
  const org = `/orgs/${encodeURIComponent(orgId)}`;
  const base = `${org}/sessions/${encodeURIComponent(session.id)}`;
  return (
    <Layout
      context={context}
      frame={{
        title: `Session ${session.id.slice(0, 8)}`,
        breadcrumbs: [
          { label: `Organisation ${orgId}`, href: org },
          { label: 'Sessions', href: `${org}/sessions` },
          { label: session.id.slice(0, 8) },
        ],
        scripts: [scriptPath('live-session')],
      }}
    >
      <Facts
        items={[
          ['Session id', <code>{session.id}</code>],
          ['Created', <Time at={session.createdAt} />],
          ['Response mode', session.responseMode],
          ['Client id', <code class="fingerprint">{session.clientId}</code>],
        ]}
      />
      <div class="visually-hidden" aria-live="polite" id="live-announcer" />
      <div id="session-live-region" data-stream-url={`${base}/stream`}>
        <SessionLive orgId={orgId} view={view} csrfToken={context.csrfToken} claims={props.claims} />
      </div>
    </Layout>
  );
}
