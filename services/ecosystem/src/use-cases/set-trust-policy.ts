import type { TrustPolicyBody } from '@tessera/contracts';
import type { Principal } from '@tessera/service-kit';
import type { EcosystemRow } from '../db/schema.js';
import { setTrustPolicy as setTrustPolicyRow } from '../db/trust-settings.js';
import type { EcosystemDb } from '../db/types.js';
import { ecosystemNotFound } from '../domain/errors.js';
import { authoriseEcosystem } from './steps/ecosystem-access.js';

export interface SetTrustPolicyDeps {
  db: EcosystemDb;
}

export interface SetTrustPolicyInput {
  principal: Principal;
  ecosystemId: string;
  body: TrustPolicyBody;
}

/**
 * `PUT /v1/ecosystem/{ecosystemId}/trust-policy`: the lead decides whom the
 * ecosystem's intent-based sessions trust. The list's content is unchanged: no
 * sequence change, no history entry, no change event. Intent resolutions carry the
 * policy; the write empties their caches on commit (the ecosystems table notifies).
 */
export async function setTrustPolicy(deps: SetTrustPolicyDeps, input: SetTrustPolicyInput): Promise<EcosystemRow> {
  const { ecosystem } = await authoriseEcosystem(deps.db, input.principal, input.ecosystemId, ['lead']);
  const updated = await setTrustPolicyRow(deps.db, {
    ecosystemId: ecosystem.id,
    policy: input.body.policy,
    userId: input.principal.sub,
  });
  if (!updated) throw ecosystemNotFound();
  return updated;
}
