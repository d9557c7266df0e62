// Rows to the wire shapes of `@tessera/contracts` (timestamps as ISO 8601 UTC).
import type { Ecosystem, EcosystemMember, Intent, IntentNotice, IntentTemplate, Invitation, Organisation } from '@tessera/contracts';
import type { EcosystemRow, IntentRow, IntentTemplateRow, InvitationRow, OrganisationRow } from './db/schema.js';
import type { InvitationView } from './db/invitations.js';
import type { MemberView } from './db/memberships.js';
import type { NoticeVersionView } from './db/intent-notices.js';

const iso = (date: Date) => date.toISOString();

export function presentOrganisation(row: OrganisationRow): Organisation {
  return { id: row.id, name: row.name, ownerUserId: row.ownerUserId, ownerEmail: row.ownerEmail, createDateTime: iso(row.createdAt), lastChangedDateTime: iso(row.lastChangedAt) };
}

export function presentEcosystem(row: EcosystemRow): Ecosystem {
  return {
    id: row.id,
    name: row.name,
    description: row.description,
    tags: row.tags ?? null,
    autoEndorsement: row.autoEndorsement,
    logoUrl: row.logoUrl,
    createdBy: row.createdBy,
    createDateTime: iso(row.createdAt),
  };
}

/** The seed answers a new lead invitation in the Ecosystem shape, with the invitation's id (ECOSYSTEM.md). */
export function presentLeadInvitationAsEcosystem(row: InvitationRow): Ecosystem {
  return { id: row.id, name: '', description: '', tags: null, autoEndorsement: false, logoUrl: null, createdBy: row.createdBy, createDateTime: iso(row.createdAt) };
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
    createDateTime: iso(row.createdAt),
    lastChangedDateTime: iso(row.lastChangedAt),
    createdBy: row.createdBy,
    lastChangedBy: row.lastChangedBy,
    deletedAt: row.deletedAt ? iso(row.deletedAt) : null,
    ecosystem: view.ecosystem
      ? { id: view.ecosystem.id, name: view.ecosystem.name, description: view.ecosystem.description, createDateTime: iso(view.ecosystem.createdAt) }
      : null,
    organisation: view.organisation,
  };
}

export function presentMember(view: MemberView): EcosystemMember {
  const row = view.membership;
  return {
    id: row.id,
    role: row.role,
    status: row.status,
    createDateTime: iso(row.createdAt),
    ecosystem: { id: row.ecosystemId, name: view.ecosystemName },
    organisation: { id: row.orgId, name: view.organisationName },
    user: { id: row.userId, email: row.userEmail },
  };
}

export function presentIntent(row: IntentRow): Intent {
  return {
    id: row.id,
    ecosystemId: row.ecosystemId,
    name: row.name,
    description: row.description,
    createDateTime: iso(row.createdAt),
    lastChangedDateTime: iso(row.lastChangedAt),
    createdBy: row.createdBy,
    lastChangedBy: row.lastChangedBy,
  };
}

export function presentIntentTemplate(row: IntentTemplateRow): IntentTemplate {
  return {
    id: row.id,
    intentId: row.intentId,
    templateId: row.templateId,
    role: row.role,
    description: row.description,
    orgId: row.orgId,
    createDateTime: iso(row.createdAt),
    createdBy: row.createdBy,
    lastChangedDateTime: iso(row.lastChangedAt),
    lastChangedBy: row.lastChangedBy,
  };
}

export function presentNotice(view: NoticeVersionView): IntentNotice {
  return { id: view.id, intentId: view.intentId, version: view.version, createdBy: view.createdBy, createDateTime: iso(view.createdAt), ...view.body };
}
