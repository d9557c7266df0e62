import type { Principal } from '@tessera/service-kit';
import type { EcosystemRow } from '../db/schema.js';
import type { EcosystemDb } from '../db/types.js';
import { authoriseEcosystem } from './steps/ecosystem-access.js';

export interface GetTrustPolicyDeps {
  db: EcosystemDb;
}

/** `GET /v1/ecosystem/{ecosystemId}/trust-policy`: lead and active members (members' sessions follow it). */
export async function getTrustPolicy(
  deps: GetTrustPolicyDeps,
  input: { principal: Principal; ecosystemId: string },
): Promise<EcosystemRow> {
  const { ecosystem } = await authoriseEcosystem(deps.db, input.principal, input.ecosystemId, ['lead', 'member']);
  return ecosystem;
}
