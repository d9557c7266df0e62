import { ErrorCode, type InvitationDecisionBody } from '@tessera/contracts';
import { badRequest, forbidden, orgsWithRole, requireOrgRole, type Principal } from '@tessera/service-kit';
import { ecosystemNotFound, loadStanding, MANAGING_ROLES } from './access.js';
import { findEcosystem } from './db/ecosystems.js';
import { decideInvitation, findMemberInvitations } from './db/invitations.js';
import type { EcoDb } from './db/db-types.js';
import type { InvitationRow } from './db/schema.js';

/**
 * `POST /v1/ecosystem/update-invitation-status`: an owner or admin of the invited
 * organisation accepts or rejects its invitation. Which organisation answers: `orgId`
 * when given, else the caller's one organisation with a pending invitation.
 */
export async function answerInvitation(db: EcoDb, principal: Principal, body: InvitationDecisionBody): Promise<InvitationRow> {
  if (body.orgId) requireOrgRole(principal, body.orgId, MANAGING_ROLES);
  if (!(await findEcosystem(db, body.ecosystemId))) throw ecosystemNotFound();
  const candidates = body.orgId ? [body.orgId] : orgsWithRole(principal, MANAGING_ROLES);
  const invitations = await findMemberInvitations(db, body.ecosystemId, candidates);
  if (invitations.length === 0) {
    const standing = await loadStanding(db, principal, body.ecosystemId);
    if (standing.relation === 'outsider') throw ecosystemNotFound();
    throw forbidden('None of your organisations has an invitation to this ecosystem.', ErrorCode.FORBIDDEN);
  }
  const pending = invitations.filter((invitation) => invitation.status === 'pending');
  if (pending.length > 1) {
    throw badRequest('Several of your organisations are invited to this ecosystem: name the one that answers.', [
      { path: '/orgId', message: 'body /orgId is required when more than one of your organisations has a pending invitation' },
    ]);
  }
  const chosen = pending[0] ?? invitations[0]!;
  return decideInvitation(db, { ecosystemId: body.ecosystemId, orgId: chosen.invitedOrg!, status: body.status, userId: principal.sub, userEmail: principal.email ?? null });
}
