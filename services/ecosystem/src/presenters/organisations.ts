import type { Organisation } from '@tessera/contracts';
import type { OrganisationRow } from '../db/schema.js';

export function presentOrganisation(row: OrganisationRow): Organisation {
  return {
    id: row.id,
    name: row.name,
    ownerUserId: row.ownerUserId,
    ownerEmail: row.ownerEmail,
    createDateTime: row.createdAt.toISOString(),
    lastChangedDateTime: row.lastChangedAt.toISOString(),
  };
}
