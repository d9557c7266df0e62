import type { PageOf, StatusListVersion } from '@tessera/contracts';
import { decodeStatusListToken, listIdOf, type DecodedStatusList } from '../domain/status-list-token.js';
import { failed, succeeded, type ServiceResult } from '../domain/service-problem.js';
import type { StatusListApi } from '../network/status-list-api.js';

export interface LoadStatusListDeps {
  statusList: Pick<StatusListApi, 'getStatusListToken' | 'getAggregation' | 'getStatusListVersions'>;
}

/** Versions of a list shown per page. */
export const VERSIONS_PAGE_SIZE = 20;

/** What the list page shows: the list decoded and, when the service keeps history, a page of its versions. */
export interface LoadedStatusList {
  list: DecodedStatusList;
  /** Absent when the service keeps no history (501) or could not list them (`versionsProblem`). */
  versions?: PageOf<StatusListVersion>;
  versionsProblem?: { message: string; code: string };
}

/**
 * A status list of the platform's status list service, decoded (read publicly, as
 * verifiers read it), in either form; with `time` (unix seconds), the version that was
 * valid then (the service's history); and a page of the list's versions, each opened by
 * its `iat`.
 */
export async function loadStatusList(
  deps: LoadStatusListDeps,
  input: { listId: string; time?: number; versionsPage?: number },
): Promise<ServiceResult<LoadedStatusList>> {
  const [token, versions] = await Promise.all([
    deps.statusList.getStatusListToken(input.listId, input.time),
    deps.statusList.getStatusListVersions(input.listId, {
      pageNumber: input.versionsPage ?? 1,
      pageSize: VERSIONS_PAGE_SIZE,
    }),
  ]);
  if (!token.ok) return token;
  const decoded = decodeStatusListToken(token.value);
  if (!decoded.ok)
    return failed({
      service: 'status-list',
      status: 502,
      code: token.value.mediaType.endsWith('+cwt') ? 'INVALID_STATUS_LIST_CWT' : 'INVALID_STATUS_LIST_JWT',
      message: decoded.problem,
    });
  if (versions.ok) return succeeded({ list: decoded.list, versions: versions.value });
  // No history kept: the list alone, as before; another refusal is said beside the list.
  if (versions.problem.code === 'HISTORY_NOT_SUPPORTED') return succeeded({ list: decoded.list });
  return succeeded({
    list: decoded.list,
    versionsProblem: { message: versions.problem.message, code: versions.problem.code },
  });
}

/** One list of the aggregation: its URI and, when it names a list of this service, the list id. */
export interface AggregatedList {
  uri: string;
  listId?: string;
}

/** The platform's lists (the service's Status List Aggregation), a page at a time, in the service's order. */
export async function loadStatusListAggregation(
  deps: LoadStatusListDeps,
  input: { page: number; pageSize: number },
): Promise<ServiceResult<PageOf<AggregatedList>>> {
  const aggregation = await deps.statusList.getAggregation();
  if (!aggregation.ok) return aggregation;
  const all = aggregation.value;
  const totalPages = Math.max(1, Math.ceil(all.length / input.pageSize));
  const page = Math.min(input.page, totalPages);
  const data = all.slice((page - 1) * input.pageSize, page * input.pageSize).map((uri) => {
    const listId = listIdOf(uri);
    return listId ? { uri, listId } : { uri };
  });
  return succeeded({ totalItems: all.length, totalPages, page, pageSize: input.pageSize, data });
}
