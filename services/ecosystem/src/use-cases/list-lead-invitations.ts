import type { InvitationStatus } from '@tessera/contracts';
import { requirePlatformAdmin, type PageWindow, type Principal } from '@tessera/service-kit';
import { listInvitations, type InvitationView } from '../db/invitations.js';
import type { EcosystemDb } from '../db/types.js';

export interface ListLeadInvitationsDeps {
  db: EcosystemDb;
}

export interface ListLeadInvitationsInput {
  principal: Principal;
  status: InvitationStatus | undefined;
  window: PageWindow;
}

export interface ListLeadInvitationsResult {
  rows: InvitationView[];
  total: number;
}

/** `GET /v1/invitations`: the lead invitations the calling admin sent, newest first. */
export async function listLeadInvitations(
  deps: ListLeadInvitationsDeps,
  input: ListLeadInvitationsInput,
): Promise<ListLeadInvitationsResult> {
  requirePlatformAdmin(input.principal);
  return listInvitations(deps.db, { kind: 'lead-sent-by', createdBy: input.principal.sub }, input.status, input.window);
}
