import { badRequest, requireOrgRole, type Principal } from '@tessera/service-kit';
import { upsertOrganisation } from '../db/organisations.js';
import type { OrganisationRow } from '../db/schema.js';
import type { EcosystemDb } from '../db/types.js';
import { normaliseName } from '../domain/names.js';

export interface RegisterOrganisationDeps {
  db: EcosystemDb;
}

export interface RegisterOrganisationInput {
  principal: Principal;
  orgId: string;
  name: string;
}

export interface RegisterOrganisationResult {
  organisation: OrganisationRow;
  /** True when the directory had no entry for the organisation yet. */
  created: boolean;
}

/** `PUT /v1/organisations/{orgId}`: the owner registers or renames their organisation in the directory. */
export async function registerOrganisation(
  deps: RegisterOrganisationDeps,
  input: RegisterOrganisationInput,
): Promise<RegisterOrganisationResult> {
  const name = normaliseName({ value: input.name, path: '/name', min: 1, max: 200 });
  requireOrgRole(input.principal, input.orgId, ['owner']);
  if (!input.principal.email)
    throw badRequest(
      "Your access token carries no e-mail address; the directory records the owner's e-mail for invitations.",
    );
  const { row, created } = await upsertOrganisation(deps.db, {
    id: input.orgId,
    name,
    ownerUserId: input.principal.sub,
    ownerEmail: input.principal.email,
  });
  return { organisation: row, created };
}
