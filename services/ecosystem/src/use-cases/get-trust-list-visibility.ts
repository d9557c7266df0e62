import type { Principal } from '@tessera/service-kit';
import type { EcosystemRow } from '../db/schema.js';
import type { EcosystemDb } from '../db/types.js';
import { authoriseEcosystem } from './steps/ecosystem-access.js';

export interface GetTrustListVisibilityDeps {
  db: EcosystemDb;
}

/**
 * `GET /v1/ecosystem/{ecosystemId}/trust-list/visibility`: whether the signed list is
 * served without a token — lead and active members (they fetch the list), as the trust policy.
 */
export async function getTrustListVisibility(
  deps: GetTrustListVisibilityDeps,
  input: { principal: Principal; ecosystemId: string },
): Promise<EcosystemRow> {
  const { ecosystem } = await authoriseEcosystem(deps.db, input.principal, input.ecosystemId, ['lead', 'member']);
  return ecosystem;
}
