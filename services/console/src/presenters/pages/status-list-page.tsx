import type { PageOf } from '@tessera/contracts';
import { utcFieldOfUnixSeconds } from '../../domain/format.js';
import { countStatuses, searchEntries, statusName, type DecodedStatusList } from '../../domain/status-list-token.js';
import type { ServiceProblem } from '../../domain/service-problem.js';
import type { AggregatedList } from '../../use-cases/load-status-list.js';
import { DataTable } from '../components/data-table.js';
import { Badge, Empty, Facts, Pagination, Section, Time } from '../components/display.js';
import { SelectField, TextField } from '../components/forms.js';
import { Layout } from '../components/layout.js';
import type { PageContext } from '../page-context.js';

export interface StatusListSearch {
  list?: string;
  /** The `datetime-local` value (UTC) the list is read as of; absent: now. */
  at?: string;
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
  /** Without a list: a page of the platform's lists (the service's aggregation). */
  lists?: PageOf<AggregatedList>;
  problem?: ServiceProblem | { message: string; code?: string };
}) {
  const { context, search, decoded } = props;
  const found = decoded ? searchEntries(decoded, { ...search, pageSize: PAGE_SIZE }) : undefined;
  const listQuery = (changes: { page?: number; at?: string | undefined }) => {
    const parameters = new URLSearchParams({ list: search.list ?? '' });
    const at = 'at' in changes ? changes.at : search.at;
    if (at) parameters.set('at', at);
    if (changes.page !== undefined) parameters.set('page', String(changes.page));
    if (search.status !== undefined && changes.page !== undefined) parameters.set('status', String(search.status));
    return `/status-lists?${parameters.toString()}`;
  };
  const query = (page: number) => listQuery({ page });
  const pages = found ? Math.max(1, Math.ceil(found.total / PAGE_SIZE)) : 1;
  return (
    <Layout context={context} frame={{ title: 'Status lists' }}>
      <p>
        Open a status list of the platform's status list service — from the service's list of lists below, or by its id
        or address — and read its entries as a verifier does: each index and its status, now or as of an earlier time.
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
          name="at"
          label="As of (UTC)"
          type="datetime-local"
          step="1"
          value={search.at ?? ''}
          hint="Empty: the list as it is now. A time: the version that was valid then."
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
      {props.lists ? (
        <Section title="The platform's lists" id="lists">
          {props.lists.data.length === 0 ? (
            <Empty>The status list service holds no list yet.</Empty>
          ) : (
            <DataTable
              label="The platform's status lists"
              caption="The platform's status lists: each list's id and address"
              columns={['List', 'Address']}
            >
              {props.lists.data.map((entry) => (
                <tr>
                  <td>
                    <a href={`/status-lists?${new URLSearchParams({ list: entry.uri }).toString()}`}>
                      {entry.listId ?? 'Open'}
                    </a>
                  </td>
                  <td>
                    <code class="fingerprint">{entry.uri}</code>
                  </td>
                </tr>
              ))}
            </DataTable>
          )}
          <Pagination page={props.lists} href={(page) => `/status-lists?page=${page}`} label="The platform's lists" />
        </Section>
      ) : null}
      {decoded && found ? (
        <>
          <Section title="The list" id="list">
            <Facts
              items={[
                ['Id', <code>{props.listId}</code>],
                [
                  'Version',
                  search.at ? (
                    <>
                      the one valid at <Time at={`${search.at}Z`} />
                    </>
                  ) : (
                    'the current one'
                  ),
                ],
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
            <nav class="links" aria-label="Versions of the list">
              {decoded.issuedAt !== undefined ? (
                <a href={listQuery({ at: utcFieldOfUnixSeconds(decoded.issuedAt - 1) })}>The version before this one</a>
              ) : null}
              {search.at ? <a href={listQuery({ at: undefined })}>The current version</a> : null}
            </nav>
          </Section>
          <Section title="Entries" id="entries">
            {found.entries.length === 0 ? (
              <p class="empty">No entry matches.</p>
            ) : (
              <DataTable
                label="Entries: index and status"
                class="status-grid"
                columns={[{ heading: 'Index', numeric: true }, 'Status']}
              >
                {found.entries.map((entry) => (
                  <tr data-index={entry.index}>
                    <td class="number">{entry.index}</td>
                    <td>
                      <Badge tone={TONES[entry.status] ?? 'info'}>{statusName(entry.status)}</Badge>
                    </td>
                  </tr>
                ))}
              </DataTable>
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
