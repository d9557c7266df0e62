import { ErrorCode } from '@tessera/contracts';
import { conflict, notFound, type Principal } from '@tessera/service-kit';
import {
  findMemberInvitation,
  insertMemberInvitation,
  reopenRejectedInvitation,
  viewInvitation,
  type InvitationView,
} from '../db/invitations.js';
import { findMembership } from '../db/memberships.js';
import { findOrganisation } from '../db/organisations.js';
import type { EcosystemDb } from '../db/types.js';
import { invitationPending } from '../domain/errors.js';
import { authoriseEcosystem } from './steps/ecosystem-access.js';

export interface InviteMemberDeps {
  db: EcosystemDb;
}

export interface InviteMemberInput {
  principal: Principal;
  ecosystemId: string;
  orgId: string;
}

const alreadyMember = (orgId: string) =>
  conflict(ErrorCode.ALREADY_MEMBER, `Organisation ${orgId} is a member of this ecosystem already.`);

/**
 * `POST /v1/ecosystem/invite-member`: the lead invites an organisation of the directory,
 * addressed to its owner. A new pending invitation, or a rejected one back to pending;
 * one row per (ecosystem, organisation) under a unique index keeps racing invites to one.
 */
export async function inviteMember(deps: InviteMemberDeps, input: InviteMemberInput): Promise<InvitationView> {
  const { principal, ecosystemId, orgId } = input;
  await authoriseEcosystem(deps.db, principal, ecosystemId, ['lead']);
  const organisation = await findOrganisation(deps.db, orgId);
  if (!organisation) throw notFound(`Organisation ${orgId} is not in the directory.`, ErrorCode.ORGANISATION_NOT_FOUND);
  const invitation = await deps.db.transaction(async (tx) => {
    if (await findMembership(tx, ecosystemId, orgId)) throw alreadyMember(orgId);
    const values = {
      ecosystemId,
      orgId,
      email: organisation.ownerEmail,
      ownerUserId: organisation.ownerUserId,
      createdBy: principal.sub,
    };
    const invited = (await insertMemberInvitation(tx, values)) ?? (await reopenRejectedInvitation(tx, values));
    if (invited) return invited;
    const existing = await findMemberInvitation(tx, ecosystemId, orgId);
    if (existing?.status === 'accepted') throw alreadyMember(orgId);
    throw invitationPending(`Organisation ${orgId}`);
  });
  return viewInvitation(deps.db, invitation);
}
