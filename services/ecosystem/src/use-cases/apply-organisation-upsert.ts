import type { OrganisationUpsertedEvent } from '@tessera/contracts';
import { upsertOrganisation } from '../db/organisations.js';
import type { EcosystemDb } from '../db/types.js';

export interface ApplyOrganisationUpsertDeps {
  db: EcosystemDb;
}

/**
 * `platform.v1.organisation.upserted`: the directory takes the platform's record.
 * Events carry no version: the last one applied wins (README).
 */
export async function applyOrganisationUpsert(
  deps: ApplyOrganisationUpsertDeps,
  event: OrganisationUpsertedEvent,
): Promise<void> {
  await upsertOrganisation(deps.db, {
    id: event.id,
    name: event.name.trim(),
    ownerUserId: event.ownerUserId,
    ownerEmail: event.ownerEmail,
  });
}
