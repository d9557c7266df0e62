import { requirePlatformAdmin, type Principal } from '@tessera/service-kit';
import { insertLeadInvitation } from '../db/invitations.js';
import type { InvitationRow } from '../db/schema.js';
import { isConflict, type EcosystemDb } from '../db/types.js';
import { invitationPending } from '../domain/errors.js';

export interface InviteLeadDeps {
  db: EcosystemDb;
}

export interface InviteLeadInput {
  principal: Principal;
  email: string;
}

/** `POST /v1/invitations`: the platform admin invites a future lead by e-mail (one pending invitation per address). */
export async function inviteLead(deps: InviteLeadDeps, input: InviteLeadInput): Promise<InvitationRow> {
  requirePlatformAdmin(input.principal);
  const email = input.email.trim();
  const invitation = await insertLeadInvitation(deps.db, { email, createdBy: input.principal.sub });
  if (isConflict(invitation)) throw invitationPending(email);
  return invitation;
}
