import type { PageOf } from '@tessera/contracts';
import { decodeStatusListToken, listIdOf, type DecodedStatusList } from '../domain/status-list-token.js';
import { failed, succeeded, type ServiceResult } from '../domain/service-problem.js';
import type { StatusListApi } from '../network/status-list-api.js';

export interface LoadStatusListDeps {
  statusList: Pick<StatusListApi, 'getStatusListToken' | 'getAggregation'>;
}

/**
 * A status list of the platform's status list service, decoded (read publicly, as
 * verifiers read it), in either form; with `time` (unix seconds), the version that was
 * valid then (the service's history).
 */
export async function loadStatusList(
  deps: LoadStatusListDeps,
  input: { listId: string; time?: number },
): Promise<ServiceResult<{ list: DecodedStatusList }>> {
  const token = await deps.statusList.getStatusListToken(input.listId, input.time);
  if (!token.ok) return token;
  const decoded = decodeStatusListToken(token.value);
  if (!decoded.ok)
    return failed({
      service: 'status-list',
      status: 502,
      code: token.value.mediaType.endsWith('+cwt') ? 'INVALID_STATUS_LIST_CWT' : 'INVALID_STATUS_LIST_JWT',
      message: decoded.problem,
    });
  return succeeded({ list: decoded.list });
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
