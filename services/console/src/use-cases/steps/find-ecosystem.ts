import type { EcosystemListEntry } from '@tessera/contracts';
import type { ServiceResult } from '../../domain/service-problem.js';
import type { EcosystemApi } from '../../network/ecosystem-api.js';

/**
 * One ecosystem of the caller, with the caller's role in it (`GET /v1/ecosystem/{id}`:
 * the entry the caller's list shows; 404 ECOSYSTEM_NOT_FOUND to anyone but its lead and
 * active members).
 */
export function findEcosystem(
  ecosystem: Pick<EcosystemApi, 'getEcosystem'>,
  token: string,
  ecosystemId: string,
): Promise<ServiceResult<EcosystemListEntry>> {
  return ecosystem.getEcosystem(token, ecosystemId);
}
