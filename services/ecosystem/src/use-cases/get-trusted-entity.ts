import type { Principal } from '@tessera/service-kit';
import { listCurrentCertificates } from '../db/trusted-entity-certificates.js';
import type { EcosystemDb } from '../db/types.js';
import type { TrustedEntityView } from './create-trusted-entity.js';
import { authoriseTrustedEntity } from './steps/trusted-entity-access.js';

export interface GetTrustedEntityDeps {
  db: EcosystemDb;
}

export interface GetTrustedEntityInput {
  principal: Principal;
  ecosystemId: string;
  entityId: string;
}

/** `GET /v1/ecosystem/{ecosystemId}/trusted-entities/{entityId}`: lead and active members. */
export async function getTrustedEntity(
  deps: GetTrustedEntityDeps,
  input: GetTrustedEntityInput,
): Promise<TrustedEntityView> {
  const { ecosystem, entity } = await authoriseTrustedEntity(
    deps.db,
    input.principal,
    input.ecosystemId,
    input.entityId,
    ['lead', 'member'],
  );
  return { entity, certificates: await listCurrentCertificates(deps.db, ecosystem.id, [entity.id]) };
}
