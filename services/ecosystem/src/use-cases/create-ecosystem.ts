import { ErrorCode, type EcosystemCreateBody } from '@tessera/contracts';
import { conflict, forbidden, notFound, requireOrgRole, type Principal } from '@tessera/service-kit';
import { insertEcosystem } from '../db/ecosystems.js';
import { claimLeadInvitation, findPendingLeadInvitation } from '../db/invitations.js';
import { insertLeadMembership } from '../db/memberships.js';
import { findOrganisation } from '../db/organisations.js';
import type { EcosystemRow } from '../db/schema.js';
import { isConflict, type EcosystemDb } from '../db/types.js';
import { normaliseName } from '../domain/names.js';

export interface CreateEcosystemDeps {
  db: EcosystemDb;
}

export interface CreateEcosystemInput {
  principal: Principal;
  /** The organisation that leads the new ecosystem. */
  orgId: string;
  body: EcosystemCreateBody;
}

const noLeadInvitation = () =>
  forbidden(
    'Creating an ecosystem needs a pending lead invitation for the e-mail address of your account.',
    ErrorCode.NO_LEAD_INVITATION,
  );

/**
 * `POST /v1/ecosystem/{orgId}/create`: the owner of `orgId` with a pending lead
 * invitation creates an ecosystem. In one transaction: the ecosystem, the caller's
 * invitation marked accepted, and `orgId`'s ACTIVE lead membership. The invitation is
 * claimed with a conditional UPDATE, so two simultaneous creations from one invitation
 * make one ecosystem; the other gets NO_LEAD_INVITATION, as a late caller would.
 */
export async function createEcosystem(deps: CreateEcosystemDeps, input: CreateEcosystemInput): Promise<EcosystemRow> {
  const { principal, orgId, body } = input;
  // Body rules first, like the schema: bad input is 400 whoever sends it.
  const name = normaliseName({ value: body.name, path: '/name', min: 2, max: 50 });
  requireOrgRole(principal, orgId, ['owner']);
  const email = principal.email;
  if (!email || !(await findPendingLeadInvitation(deps.db, email))) throw noLeadInvitation();
  if (!(await findOrganisation(deps.db, orgId))) {
    throw notFound(
      `Organisation ${orgId} is not in the directory: register it with PUT /v1/organisations/${orgId} first.`,
      ErrorCode.ORGANISATION_NOT_FOUND,
    );
  }
  return deps.db.transaction(async (tx) => {
    const ecosystem = await insertEcosystem(tx, {
      name,
      description: body.description.trim(),
      tags: body.tags ?? null,
      autoEndorsement: body.autoEndorsement ?? false,
      logoUrl: body.logoUrl ?? null,
      userId: principal.sub,
    });
    if (isConflict(ecosystem))
      throw conflict(
        ErrorCode.ECOSYSTEM_NAME_TAKEN,
        `An ecosystem named "${name}" exists already; choose another name.`,
      );
    const claimed = await claimLeadInvitation(tx, { email, ecosystemId: ecosystem.id, orgId, userId: principal.sub });
    if (!claimed) throw noLeadInvitation();
    await insertLeadMembership(tx, { ecosystemId: ecosystem.id, orgId, userId: principal.sub, userEmail: email });
    return ecosystem;
  });
}
