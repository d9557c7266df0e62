import type { EcosystemMember, EcosystemOrganisation } from '@tessera/contracts';
import type { ActiveOrganisationRow, MemberView } from '../db/memberships.js';

export function presentMember(view: MemberView): EcosystemMember {
  const row = view.membership;
  return {
    id: row.id,
    role: row.role,
    status: row.status,
    createDateTime: row.createdAt.toISOString(),
    ecosystem: { id: row.ecosystemId, name: view.ecosystemName },
    organisation: { id: row.orgId, name: view.organisationName },
    user: { id: row.userId, email: row.userEmail },
  };
}

export function presentEcosystemOrganisation(row: ActiveOrganisationRow): EcosystemOrganisation {
  return { id: row.id, name: row.name, role: row.role, joinedDateTime: row.joinedAt.toISOString() };
}
