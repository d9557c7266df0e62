import type { SessionFilter } from '../../domain/session-filter.js';
import type { SessionList } from '../../use-cases/load-sessions.js';
import { scriptPath } from '../asset-paths.js';
import { Section, TableScroll } from '../components/display.js';
import { SelectField } from '../components/forms.js';
import { Layout } from '../components/layout.js';
import { SessionRow } from '../components/session-row.js';
import type { PageContext } from '../page-context.js';

export function sessionListQuery(filter: SessionFilter, pageNumber?: number): string {
  const query = new URLSearchParams();
  if (filter.verifierId) query.set('verifier', filter.verifierId);
  if (filter.state) query.set('state', filter.state);
  query.set('window', filter.window);
  if (pageNumber && pageNumber > 1) query.set('page', String(pageNumber));
  return query.toString();
}

export function SessionsPage(props: { context: PageContext; orgId: string; filter: SessionFilter; list: SessionList }) {
  const { context, orgId, filter, list } = props;
  const base = `/orgs/${encodeURIComponent(orgId)}/sessions`;
  const live = list.pageNumber === 1;
  return (
    <Layout
      context={context}
      frame={{
        title: 'Sessions',
        breadcrumbs: [
          { label: `Organisation ${orgId}`, href: `/orgs/${encodeURIComponent(orgId)}` },
          { label: 'Sessions' },
        ],
        scripts: live ? [scriptPath('live-sessions')] : [],
      }}
    >
      <p>
        <a class="button" href={`${base}/new`}>
          New presentation request
        </a>
      </p>
      <form method="get" action={base} class="columns" aria-label="Filter the sessions">
        <SelectField
          name="verifier"
          label="Verifier"
          blank="Every verifier"
          value={filter.verifierId ?? ''}
          options={list.verifiers.map((verifier) => ({ value: verifier.verifierId, label: verifier.verifierId }))}
        />
        <SelectField
          name="state"
          label="State"
          blank="Every state"
          value={filter.state ?? ''}
          options={[
            { value: 'RequestCreated', label: 'waiting for a wallet' },
            { value: 'RequestUriRetrieved', label: 'wallet fetched the request' },
            { value: 'ResponseVerified', label: 'verified' },
            { value: 'Error', label: 'refused' },
          ]}
        />
        <SelectField
          name="window"
          label="Created"
          value={filter.window}
          options={[
            { value: 'hour', label: 'in the last hour' },
            { value: 'day', label: 'in the last 24 hours' },
            { value: 'week', label: 'in the last 7 days' },
            { value: 'all', label: 'at any time' },
          ]}
        />
        <div>
          <button type="submit" class="secondary">
            Show
          </button>
        </div>
      </form>
      <Section title="Sessions, newest first" id="sessions">
        {live ? (
          <p class="hint" id="live-status">
            This list updates by itself as sessions change.
          </p>
        ) : null}
        <TableScroll label="Presentation sessions, newest first">
          <table>
            <caption class="visually-hidden">Presentation sessions, newest first</caption>
            <thead>
              <tr>
                <th scope="col">Session</th>
                <th scope="col">Verifier</th>
                <th scope="col">State</th>
                <th scope="col">Response mode</th>
                <th scope="col">Created</th>
                <th scope="col">Changed</th>
              </tr>
            </thead>
            <tbody id="session-rows" data-stream-url={live ? `${base}/stream?${sessionListQuery(filter)}` : undefined}>
              {list.sessions.map((session) => (
                <SessionRow orgId={orgId} session={session} />
              ))}
            </tbody>
          </table>
        </TableScroll>
        {list.sessions.length === 0 ? (
          <p class="empty" id="no-sessions">
            No session matches.
          </p>
        ) : null}
        <div class="visually-hidden" aria-live="polite" id="live-announcer" />
        <nav class="pagination" aria-label="Sessions: pages">
          {list.pageNumber > 1 ? (
            <a href={`${base}?${sessionListQuery(filter, list.pageNumber - 1)}`}>Newer sessions</a>
          ) : null}
          {list.hasNext ? (
            <a href={`${base}?${sessionListQuery(filter, list.pageNumber + 1)}`}>Older sessions</a>
          ) : null}
        </nav>
      </Section>
    </Layout>
  );
}
