import { decodeStatusListToken, type DecodedStatusList } from '../domain/status-list-token.js';
import { failed, succeeded, type ServiceResult } from '../domain/service-problem.js';
import type { StatusListApi } from '../network/status-list-api.js';

export interface LoadStatusListDeps {
  statusList: Pick<StatusListApi, 'getStatusListToken'>;
}

/** A status list of the platform's status list service, decoded (read publicly, as verifiers read it). */
export async function loadStatusList(
  deps: LoadStatusListDeps,
  input: { listId: string },
): Promise<ServiceResult<{ list: DecodedStatusList; token: string }>> {
  const token = await deps.statusList.getStatusListToken(input.listId);
  if (!token.ok) return token;
  const decoded = decodeStatusListToken(token.value.body);
  if (!decoded.ok)
    return failed({ service: 'status-list', status: 502, code: 'INVALID_STATUS_LIST_JWT', message: decoded.problem });
  return succeeded({ list: decoded.list, token: token.value.body });
}
