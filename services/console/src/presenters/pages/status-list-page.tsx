import { countStatuses, searchEntries, statusName, type DecodedStatusList } from '../../domain/status-list-token.js';
import type { ServiceProblem } from '../../domain/service-problem.js';
import { Badge, Facts, Section, Time, TableScroll } from '../components/display.js';
import { SelectField, TextField } from '../components/forms.js';
import { Layout } from '../components/layout.js';
import type { PageContext } from '../page-context.js';

export interface StatusListSearch {
  list?: string;
  index?: number;
  status?: number;
  page: number;
}

const PAGE_SIZE = 100;
const TONES = ['good', 'bad', 'warn'] as const;

export function StatusListPage(props: {
  context: PageContext;
  search: StatusListSearch;
  listId?: string;
  decoded?: DecodedStatusList;
  problem?: ServiceProblem | { message: string; code?: string };
}) {
  const { context, search, decoded } = props;
  const found = decoded ? searchEntries(decoded, { ...search, pageSize: PAGE_SIZE }) : undefined;
  const query = (page: number) => {
    const parameters = new URLSearchParams({ list: search.list ?? '', page: String(page) });
    if (search.status !== undefined) parameters.set('status', String(search.status));
    return `/status-lists?${parameters.toString()}`;
  };
  const pages = found ? Math.max(1, Math.ceil(found.total / PAGE_SIZE)) : 1;
  return (
    <Layout context={context} frame={{ title: 'Status lists' }}>
      <p>
        Open a status list of the platform's status list service by its id or address, and read its entries as a
        verifier does: each index and its status. (The service has no list of lists: issuers know their ids.)
      </p>
      <form method="get" action="/status-lists" aria-label="Open a status list" class="columns">
        <TextField
          name="list"
          label="List id or address"
          required
          value={search.list ?? ''}
          hint="e.g. 2f0d3b9c-5e3a-4a8e-9d6b-1c2d3e4f5a6b"
        />
        <TextField
          name="index"
          label="Find index"
          type="number"
          min="0"
          value={search.index !== undefined ? String(search.index) : ''}
        />
        <SelectField
          name="status"
          label="Only entries that are"
          blank="any status"
          value={search.status !== undefined ? String(search.status) : ''}
          options={[0, 1, 2, 3].map((value) => ({ value: String(value), label: statusName(value) }))}
        />
        <div>
          <button type="submit">Open</button>
        </div>
      </form>
      {props.problem ? (
        <div class="flash problem" role="alert">
          <p>
            {props.problem.message}
            {props.problem.code ? <span class="code"> ({props.problem.code})</span> : null}
          </p>
        </div>
      ) : null}
      {decoded && found ? (
        <>
          <Section title="The list" id="list">
            <Facts
              items={[
                ['Id', <code>{props.listId}</code>],
                ['Subject', <code class="fingerprint">{decoded.subject}</code>],
                ['Format', `${decoded.format.toUpperCase()}, signed ${decoded.signedWith}`],
                ['Entries', `${decoded.size} of ${decoded.bits} bit${decoded.bits === 1 ? '' : 's'}`],
                ['Issued', decoded.issuedAt ? <Time at={decoded.issuedAt * 1000} /> : '—'],
                ['Expires', decoded.expiresAt ? <Time at={decoded.expiresAt * 1000} /> : '—'],
                ['Time to live', decoded.ttl !== undefined ? `${decoded.ttl} s` : '—'],
                [
                  'Counts',
                  [...countStatuses(decoded)]
                    .sort(([a], [b]) => a - b)
                    .map(([status, count]) => `${statusName(status)}: ${count}`)
                    .join(' · '),
                ],
              ]}
            />
            <p class="hint">
              History of the list (its earlier versions) is shown here once the status list service keeps it.
            </p>
          </Section>
          <Section title="Entries" id="entries">
            {found.entries.length === 0 ? (
              <p class="empty">No entry matches.</p>
            ) : (
              <TableScroll label="Entries: index and status">
                <table class="status-grid">
                  <caption class="visually-hidden">Entries: index and status</caption>
                  <thead>
                    <tr>
                      <th scope="col" class="number">
                        Index
                      </th>
                      <th scope="col">Status</th>
                    </tr>
                  </thead>
                  <tbody>
                    {found.entries.map((entry) => (
                      <tr data-index={entry.index}>
                        <td class="number">{entry.index}</td>
                        <td>
                          <Badge tone={TONES[entry.status] ?? 'info'}>{statusName(entry.status)}</Badge>
                        </td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              </TableScroll>
            )}
            {search.index === undefined && pages > 1 ? (
              <nav class="pagination" aria-label="Entries: pages">
                {search.page > 1 ? <a href={query(search.page - 1)}>Previous entries</a> : null}
                <span>
                  Page {search.page} of {pages} ({found.total} entries)
                </span>
                {search.page < pages ? <a href={query(search.page + 1)}>Next entries</a> : null}
              </nav>
            ) : null}
          </Section>
        </>
      ) : null}
    </Layout>
  );
}
