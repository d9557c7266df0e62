import type { Ecosystem, EcosystemListEntry } from '@tessera/contracts';
import type { EcosystemListRow } from '../db/ecosystems.js';
import type { EcosystemRow } from '../db/schema.js';

export function presentEcosystem(row: EcosystemRow): Ecosystem {
  return {
    id: row.id,
    name: row.name,
    description: row.description,
    tags: row.tags ?? null,
    autoEndorsement: row.autoEndorsement,
    logoUrl: row.logoUrl,
    createdBy: row.createdBy,
    createDateTime: row.createdAt.toISOString(),
  };
}

export function presentEcosystemListEntry(row: EcosystemListRow): EcosystemListEntry {
  return {
    id: row.id,
    name: row.name,
    description: row.description,
    memberCount: row.memberCount,
    role: row.role,
    leadOrg: { id: row.leadOrgId, name: row.leadOrgName },
    createDateTime: row.createdAt.toISOString(),
  };
}
