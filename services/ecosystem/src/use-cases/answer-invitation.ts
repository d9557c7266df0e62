import { ErrorCode, type InvitationDecisionBody } from '@tessera/contracts';
import { badRequest, conflict, forbidden, orgsWithRole, requireOrgRole, type Principal } from '@tessera/service-kit';
import { findEcosystem } from '../db/ecosystems.js';
import {
  closePendingInvitation,
  findMemberInvitations,
  viewInvitation,
  type InvitationView,
} from '../db/invitations.js';
import { activateMembership } from '../db/memberships.js';
import type { EcosystemDb } from '../db/types.js';
import { ecosystemNotFound } from '../domain/errors.js';
import { MANAGING_ROLES } from '../domain/relation.js';
import { loadStanding } from './steps/ecosystem-access.js';

export interface AnswerInvitationDeps {
  db: EcosystemDb;
}

export interface AnswerInvitationInput {
  principal: Principal;
  body: InvitationDecisionBody;
}

/**
 * `POST /v1/ecosystem/update-invitation-status`: an owner or admin of the invited
 * organisation accepts or rejects its invitation. Which organisation answers: `orgId`
 * when given, else the caller's one organisation with a pending invitation. Accepting
 * makes the ACTIVE membership in the same transaction; the conditional UPDATE lets one
 * of several simultaneous answers through, the others get INVITATION_NOT_PENDING.
 */
export async function answerInvitation(
  deps: AnswerInvitationDeps,
  input: AnswerInvitationInput,
): Promise<InvitationView> {
  const { principal, body } = input;
  if (body.orgId) requireOrgRole(principal, body.orgId, MANAGING_ROLES);
  if (!(await findEcosystem(deps.db, body.ecosystemId))) throw ecosystemNotFound();
  const candidates = body.orgId ? [body.orgId] : orgsWithRole(principal, MANAGING_ROLES);
  const invitations = await findMemberInvitations(deps.db, body.ecosystemId, candidates);
  if (invitations.length === 0) {
    const standing = await loadStanding(deps.db, principal, body.ecosystemId);
    if (standing.relation === 'outsider') throw ecosystemNotFound();
    throw forbidden('None of your organisations has an invitation to this ecosystem.', ErrorCode.FORBIDDEN);
  }
  const pending = invitations.filter((invitation) => invitation.status === 'pending');
  if (pending.length > 1) {
    throw badRequest('Several of your organisations are invited to this ecosystem: name the one that answers.', [
      {
        path: '/orgId',
        message: 'body /orgId is required when more than one of your organisations has a pending invitation',
      },
    ]);
  }
  const orgId = (pending[0] ?? invitations[0]!).invitedOrg!;
  const answered = await deps.db.transaction(async (tx) => {
    const closed = await closePendingInvitation(tx, {
      ecosystemId: body.ecosystemId,
      orgId,
      status: body.status,
      userId: principal.sub,
    });
    if (!closed)
      throw conflict(
        ErrorCode.INVITATION_NOT_PENDING,
        'This invitation has been answered already; only a pending invitation can be accepted or rejected.',
      );
    if (body.status === 'accepted') {
      await activateMembership(tx, {
        ecosystemId: body.ecosystemId,
        orgId,
        userId: principal.sub,
        userEmail: principal.email ?? null,
      });
    }
    return closed;
  });
  return viewInvitation(deps.db, answered);
}
