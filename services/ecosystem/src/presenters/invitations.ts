import type { Ecosystem, Invitation } from '@tessera/contracts';
import type { InvitationView } from '../db/invitations.js';
import type { InvitationRow } from '../db/schema.js';

/** The seed answers a new lead invitation in the Ecosystem shape, with the invitation's id (ECOSYSTEM.md). */
export function presentLeadInvitationAsEcosystem(row: InvitationRow): Ecosystem {
  return {
    id: row.id,
    name: '',
    description: '',
    tags: null,
    autoEndorsement: false,
    logoUrl: null,
    createdBy: row.createdBy,
    createDateTime: row.createdAt.toISOString(),
  };
}

export function presentInvitation(view: InvitationView): Invitation {
  const row = view.invitation;
  return {
    id: row.id,
    email: row.email,
    status: row.status,
    userId: row.userId,
    type: row.type,
    ecosystemId: row.ecosystemId,
    invitedOrg: row.invitedOrg,
    createDateTime: row.createdAt.toISOString(),
    lastChangedDateTime: row.lastChangedAt.toISOString(),
    createdBy: row.createdBy,
    lastChangedBy: row.lastChangedBy,
    deletedAt: row.deletedAt ? row.deletedAt.toISOString() : null,
    ecosystem: view.ecosystem
      ? {
          id: view.ecosystem.id,
          name: view.ecosystem.name,
          description: view.ecosystem.description,
          createDateTime: view.ecosystem.createdAt.toISOString(),
        }
      : null,
    organisation: view.organisation,
  };
}
