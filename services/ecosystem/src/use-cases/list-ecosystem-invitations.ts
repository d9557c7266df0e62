import type { EcosystemRole, InvitationStatus } from '@tessera/contracts';
import { requireOrgRole, type PageWindow, type Principal } from '@tessera/service-kit';
import { listInvitations, type InvitationView } from '../db/invitations.js';
import type { EcosystemDb } from '../db/types.js';
import { resolveInvitationPerspective } from '../domain/invitation-perspective.js';
import { authoriseEcosystem } from './steps/ecosystem-access.js';

export interface ListEcosystemInvitationsDeps {
  db: EcosystemDb;
}

export interface ListEcosystemInvitationsInput {
  principal: Principal;
  role: EcosystemRole | undefined;
  orgId: string | undefined;
  ecosystemId: string | undefined;
  status: InvitationStatus | undefined;
  window: PageWindow;
}

export interface ListEcosystemInvitationsResult {
  rows: InvitationView[];
  total: number;
}

/**
 * `GET /v1/ecosystem/invitations`: member invitations seen by the lead (sent in its
 * ecosystem) or by an organisation's owner (received), newest first.
 */
export async function listEcosystemInvitations(
  deps: ListEcosystemInvitationsDeps,
  input: ListEcosystemInvitationsInput,
): Promise<ListEcosystemInvitationsResult> {
  const perspective = resolveInvitationPerspective(input);
  if (perspective.kind === 'received') requireOrgRole(input.principal, perspective.orgId, ['owner']);
  else await authoriseEcosystem(deps.db, input.principal, perspective.ecosystemId, ['lead']);
  return listInvitations(deps.db, perspective, input.status, input.window);
}
