import type { PageOf } from '@tessera/contracts';
import { utcFieldOfUnixSeconds } from '../../domain/format.js';
import { countStatuses, searchEntries, statusName, type DecodedStatusList } from '../../domain/status-list-token.js';
import type { ServiceProblem } from '../../domain/service-problem.js';
import type { AggregatedList, LoadedStatusList } from '../../use-cases/load-status-list.js';
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
  /** The page of the list's versions shown. */
  versions?: number;
}

const PAGE_SIZE = 100;
const TONES = ['good', 'bad', 'warn'] as const;

export function StatusListPage(props: {
  context: PageContext;
  search: StatusListSearch;
  listId?: string;
  /** The list decoded, with a page of its versions when the service keeps history. */
  loaded?: LoadedStatusList;
  /** Without a list: a page of the platform's lists (the service's aggregation). */
  lists?: PageOf<AggregatedList>;
  problem?: ServiceProblem | { message: string; code?: string };
}) {
  const { context, search } = props;
  const decoded: DecodedStatusList | undefined = props.loaded?.list;
  const found = decoded ? searchEntries(decoded, { ...search, pageSize: PAGE_SIZE }) : undefined;
  const listQuery = (changes: { page?: number; at?: string | undefined; versions?: number }) => {
    const parameters = new URLSearchParams({ list: search.list ?? '' });
    const at = 'at' in changes ? changes.at : search.at;
    if (at) parameters.set('at', at);
    const versionsPage = changes.versions ?? search.versions;
    if (versionsPage && versionsPage > 1) parameters.set('versions', String(versionsPage));
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
            {search.at ? (
              <nav class="links" aria-label="Back to now">
                <a href={listQuery({ at: undefined })}>The current version</a>
              </nav>
            ) : null}
          </Section>
          <Versions
            loaded={props.loaded!}
            shownIat={decoded.issuedAt}
            open={(iat) => listQuery({ at: iat === undefined ? undefined : utcFieldOfUnixSeconds(iat) })}
            page={(versions) => listQuery({ versions })}
          />
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

/**
 * The list's versions (the service's `GET …/versions`), newest first, each opened as
 * of its `iat` — which answers exactly that version (the newest issued by then), unless
 * a later version repeats its `iat`. The one on show is marked.
 */
function Versions(props: {
  loaded: LoadedStatusList;
  /** The `iat` of the version on show (the newest entry with it is the one the service answered). */
  shownIat: number | undefined;
  /** Where a version opens: the current one without a time. */
  open: (iat: number | undefined) => string;
  page: (versionsPage: number) => string;
}) {
  const { versions, versionsProblem } = props.loaded;
  return (
    <Section title="Versions" id="versions">
      {versionsProblem ? (
        <p role="alert">
          The versions could not be listed: {versionsProblem.message} (<code>{versionsProblem.code}</code>)
        </p>
      ) : !versions ? (
        <Empty>The status list service keeps no history: only the current version can be read.</Empty>
      ) : (
        <>
          <DataTable
            label="Versions of the list, newest first"
            columns={['Version', 'Issued', 'Expires', 'Current from', 'Replaced', 'Open']}
          >
            {versions.data.map((version, index) => {
              const shown =
                version.iat === props.shownIat &&
                versions.data.findIndex((other) => other.iat === props.shownIat) === index;
              return (
                <tr {...(shown ? { 'aria-current': 'true' } : {})}>
                  <td>{version.current ? <Badge tone="good">current</Badge> : 'earlier'}</td>
                  <td>
                    <Time at={version.iat * 1000} />
                  </td>
                  <td>{version.exp !== undefined ? <Time at={version.exp * 1000} /> : '—'}</td>
                  <td>
                    <Time at={version.storedAt} />
                  </td>
                  <td>{version.replacedAt ? <Time at={version.replacedAt} /> : '—'}</td>
                  <td>
                    {shown ? (
                      'shown'
                    ) : (
                      <a href={props.open(version.current ? undefined : version.iat)}>
                        Open the version issued {new Date(version.iat * 1000).toISOString().replace('.000Z', 'Z')}
                      </a>
                    )}
                  </td>
                </tr>
              );
            })}
          </DataTable>
          <Pagination page={versions} href={props.page} label="Versions" />
        </>
      )}
    </Section>
  );
}
