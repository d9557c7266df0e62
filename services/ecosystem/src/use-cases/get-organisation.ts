import { ErrorCode } from '@tessera/contracts';
import { notFound, requireOrgRole, type Principal } from '@tessera/service-kit';
import { findOrganisation } from '../db/organisations.js';
import type { OrganisationRow } from '../db/schema.js';
import type { EcosystemDb } from '../db/types.js';
import { MANAGING_ROLES } from '../domain/relation.js';

export interface GetOrganisationDeps {
  db: EcosystemDb;
}

/**
 * `GET /v1/organisations/{orgId}`: the organisation's directory entry, for its owners
 * and admins (403 for anyone else, as the write); 404 ORGANISATION_NOT_FOUND when it is
 * not in the directory yet.
 */
export async function getOrganisation(
  deps: GetOrganisationDeps,
  input: { principal: Principal; orgId: string },
): Promise<OrganisationRow> {
  requireOrgRole(input.principal, input.orgId, MANAGING_ROLES);
  const organisation = await findOrganisation(deps.db, input.orgId);
  if (!organisation)
    throw notFound(
      `Organisation ${input.orgId} is not in the directory: its owner registers it with PUT /v1/organisations/${input.orgId}.`,
      ErrorCode.ORGANISATION_NOT_FOUND,
    );
  return organisation;
}
