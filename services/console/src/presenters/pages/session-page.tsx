import type { ComponentChildren } from 'preact';
import type { PresentationResponse, PresentationSession } from '@tessera/contracts';
import type { ServiceProblem } from '../../domain/service-problem.js';
import type { SessionView } from '../../use-cases/load-session.js';
import { scriptPath } from '../asset-paths.js';
import { Facts, Section, Time } from '../components/display.js';
import { Layout } from '../components/layout.js';
import { SessionLive } from '../components/session-live.js';
import type { PageContext } from '../page-context.js';

/** The claims, when the person asked to read them (a POST), or why they could not be read. */
export type SessionPageClaims = { response?: PresentationResponse; problem?: ServiceProblem };

export function SessionPage(props: {
  context: PageContext;
  orgId: string;
  view: SessionView;
  claims?: SessionPageClaims;
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
          ...dcApiFacts(session),
          ['Client id', <code class="fingerprint">{session.clientId}</code>],
          ['Payload state', <code class="fingerprint">{session.payloadState}</code>],
        ]}
      />
      {session.overAsking && session.overAsking.length > 0 ? (
        <Section title="Beyond the registration" id="over-asking">
          <p>
            The verifier's registration certificate does not cover these parts of the query (created under its
            &ldquo;allow and list&rdquo; setting): a wallet will flag them to the person.
          </p>
          <ul>
            {session.overAsking.map((entry) => (
              <li>
                {entry.message} <code>{entry.path}</code>
              </li>
            ))}
          </ul>
        </Section>
      ) : null}
      <div class="visually-hidden" aria-live="polite" id="live-announcer" />
      <div id="session-live-region" data-stream-url={`${base}/stream`}>
        <SessionLive orgId={orgId} view={view} csrfToken={context.csrfToken} claims={props.claims} />
      </div>
    </Layout>
  );
}

/**
 * A browser (Digital Credentials API) session's origins and the protocols it offers, in the
 * relying party's order; one that named none offers the signed OpenID4VP request.
 */
function dcApiFacts(session: PresentationSession): Array<[string, ComponentChildren]> {
  if (session.responseMode !== 'dc_api' && session.responseMode !== 'dc_api.jwt') return [];
  const protocols = session.dcApiProtocols ?? [];
  return [
    [
      'DC API protocols',
      protocols.length > 0 ? (
        <ol class="inline-list">
          {protocols.map((protocol) => (
            <li>
              <code>{protocol}</code>
            </li>
          ))}
        </ol>
      ) : (
        <>
          <code>openid4vp-v1-signed</code> (the default)
        </>
      ),
    ],
    ['Expected origins', session.expectedOrigins?.join(', ') ?? '—'],
  ];
}
