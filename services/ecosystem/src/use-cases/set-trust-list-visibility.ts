import type { TrustListVisibilityBody } from '@tessera/contracts';
import type { Principal } from '@tessera/service-kit';
import type { EcosystemRow } from '../db/schema.js';
import { setTrustListPublic } from '../db/trust-settings.js';
import type { EcosystemDb } from '../db/types.js';
import { ecosystemNotFound } from '../domain/errors.js';
import { authoriseEcosystem } from './steps/ecosystem-access.js';

export interface SetTrustListVisibilityDeps {
  db: EcosystemDb;
}

export interface SetTrustListVisibilityInput {
  principal: Principal;
  ecosystemId: string;
  body: TrustListVisibilityBody;
}

/**
 * `PUT /v1/ecosystem/{ecosystemId}/trust-list/visibility`: the lead lets the signed
 * list be read without a token (`public: true`) or only by lead and members. Who may
 * read the list is not its content: no sequence change, no history entry, no event.
 */
export async function setTrustListVisibility(
  deps: SetTrustListVisibilityDeps,
  input: SetTrustListVisibilityInput,
): Promise<EcosystemRow> {
  const { ecosystem } = await authoriseEcosystem(deps.db, input.principal, input.ecosystemId, ['lead']);
  const updated = await setTrustListPublic(deps.db, {
    ecosystemId: ecosystem.id,
    public: input.body.public,
    userId: input.principal.sub,
  });
  if (!updated) throw ecosystemNotFound();
  return updated;
}
