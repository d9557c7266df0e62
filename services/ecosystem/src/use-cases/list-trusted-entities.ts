import type { TrustedEntityFilter } from '@tessera/contracts';
import type { PageWindow, Principal } from '@tessera/service-kit';
import { listTrustedEntities as listTrustedEntityRows } from '../db/trusted-entities.js';
import { listCurrentCertificates } from '../db/trusted-entity-certificates.js';
import type { EcosystemDb } from '../db/types.js';
import type { TrustedEntityView } from './create-trusted-entity.js';
import { authoriseEcosystem } from './steps/ecosystem-access.js';

export interface ListTrustedEntitiesDeps {
  db: EcosystemDb;
}

export interface ListTrustedEntitiesInput {
  principal: Principal;
  ecosystemId: string;
  filter: TrustedEntityFilter;
  window: PageWindow;
}

/**
 * `GET /v1/ecosystem/{ecosystemId}/trusted-entities`: a page of the ecosystem's
 * entities for lead and active members, oldest first, filtered by role, status and an
 * allowed `vct` or doctype; each with its current certificates.
 */
export async function listTrustedEntities(
  deps: ListTrustedEntitiesDeps,
  input: ListTrustedEntitiesInput,
): Promise<{ views: TrustedEntityView[]; total: number }> {
  const { ecosystem } = await authoriseEcosystem(deps.db, input.principal, input.ecosystemId, ['lead', 'member']);
  const { rows, total } = await listTrustedEntityRows(deps.db, ecosystem.id, input.filter, input.window);
  const certificates = await listCurrentCertificates(
    deps.db,
    ecosystem.id,
    rows.map((row) => row.id),
  );
  return {
    views: rows.map((entity) => ({ entity, certificates: certificates.filter((c) => c.entityId === entity.id) })),
    total,
  };
}
