// Lead and member invitations. Lead invitations are scoped to the admin who sent them;
// member invitations to their ecosystem or to the invited organisation.
import { randomUUID } from 'node:crypto';
import { and, count, desc, eq, inArray, sql, type SQL } from 'drizzle-orm';
import { ErrorCode, type InvitationStatus } from '@tessera/contracts';
import { conflict, type PageWindow } from '@tessera/service-kit';
import { ecosystems, invitations, memberships, organisations, type InvitationRow } from './schema.js';
import { withConflicts, type EcoDb } from './db-types.js';

/** An invitation with the names the listings show (`ecosystem`, `organisation`). */
export interface InvitationView {
  invitation: InvitationRow;
  ecosystem: { id: string; name: string; description: string; createdAt: Date } | null;
  organisation: { name: string } | null;
}

const invitationPending = (what: string) => () => conflict(ErrorCode.INVITATION_PENDING, `${what} has a pending invitation already.`);

export async function createLeadInvitation(db: EcoDb, input: { email: string; createdBy: string }): Promise<InvitationRow> {
  return withConflicts(
    async () => {
      const [row] = await db
        .insert(invitations)
        .values({ id: randomUUID(), type: 'ecosystem', email: input.email, status: 'pending', createdBy: input.createdBy, lastChangedBy: input.createdBy })
        .returning();
      return row!;
    },
    { invitations_pending_lead_email_uq: invitationPending(input.email) },
  );
}

export interface InviteMemberInput {
  ecosystemId: string;
  orgId: string;
  email: string;
  /** The organisation owner's user id, so the invitation names whom it waits for. */
  ownerUserId: string;
  createdBy: string;
}

/**
 * Invites an organisation: a new pending invitation, or a rejected one back to pending.
 * One row per (ecosystem, organisation) under a unique index keeps racing invites to one.
 */
export async function inviteMember(db: EcoDb, input: InviteMemberInput): Promise<InvitationRow> {
  return db.transaction(async (tx) => {
    const [member] = await tx
      .select({ id: memberships.id })
      .from(memberships)
      .where(and(eq(memberships.ecosystemId, input.ecosystemId), eq(memberships.orgId, input.orgId)));
    if (member) throw alreadyMember(input.orgId);
    const [inserted] = await tx
      .insert(invitations)
      .values({
        id: randomUUID(),
        type: 'member',
        email: input.email,
        status: 'pending',
        userId: input.ownerUserId,
        ecosystemId: input.ecosystemId,
        invitedOrg: input.orgId,
        createdBy: input.createdBy,
        lastChangedBy: input.createdBy,
      })
      .onConflictDoNothing()
      .returning();
    if (inserted) return inserted;
    const [reopened] = await tx
      .update(invitations)
      .set({ status: 'pending', email: input.email, userId: input.ownerUserId, lastChangedBy: input.createdBy, lastChangedAt: sql`now()` })
      .where(and(memberInvitationOf(input.ecosystemId, input.orgId), eq(invitations.status, 'rejected')))
      .returning();
    if (reopened) return reopened;
    const [existing] = await tx.select({ status: invitations.status }).from(invitations).where(memberInvitationOf(input.ecosystemId, input.orgId));
    if (existing?.status === 'accepted') throw alreadyMember(input.orgId);
    throw invitationPending(`Organisation ${input.orgId}`)();
  });
}

function alreadyMember(orgId: string) {
  return conflict(ErrorCode.ALREADY_MEMBER, `Organisation ${orgId} is a member of this ecosystem already.`);
}

function memberInvitationOf(ecosystemId: string, orgId: string): SQL {
  return and(eq(invitations.type, 'member'), eq(invitations.ecosystemId, ecosystemId), eq(invitations.invitedOrg, orgId))!;
}

export interface DecideInvitationInput {
  ecosystemId: string;
  orgId: string;
  status: 'accepted' | 'rejected';
  userId: string;
  userEmail: string | null;
}

/**
 * Moves a pending member invitation to accepted or rejected; accepting creates the
 * ACTIVE membership in the same transaction. The conditional UPDATE lets exactly one
 * of several simultaneous answers through; the others get INVITATION_NOT_PENDING.
 */
export async function decideInvitation(db: EcoDb, input: DecideInvitationInput): Promise<InvitationRow> {
  return db.transaction(async (tx) => {
    const [updated] = await tx
      .update(invitations)
      .set({ status: input.status, lastChangedBy: input.userId, lastChangedAt: sql`now()` })
      .where(and(memberInvitationOf(input.ecosystemId, input.orgId), eq(invitations.status, 'pending')))
      .returning();
    if (!updated) throw conflict(ErrorCode.INVITATION_NOT_PENDING, 'This invitation has been answered already; only a pending invitation can be accepted or rejected.');
    if (input.status === 'accepted') {
      await tx
        .insert(memberships)
        .values({ id: randomUUID(), ecosystemId: input.ecosystemId, orgId: input.orgId, role: 'Ecosystem Member', status: 'ACTIVE', userId: input.userId, userEmail: input.userEmail })
        .onConflictDoUpdate({
          target: [memberships.ecosystemId, memberships.orgId],
          set: { status: 'ACTIVE', userId: input.userId, userEmail: input.userEmail, lastChangedAt: sql`now()` },
        });
    }
    return updated;
  });
}

/** Member invitations of the caller's organisations in one ecosystem. */
export async function findMemberInvitations(db: EcoDb, ecosystemId: string, orgIds: string[]): Promise<InvitationRow[]> {
  if (orgIds.length === 0) return [];
  return db
    .select()
    .from(invitations)
    .where(and(eq(invitations.type, 'member'), eq(invitations.ecosystemId, ecosystemId), inArray(invitations.invitedOrg, orgIds)));
}

export type InvitationFilter =
  | { kind: 'lead-sent-by'; createdBy: string }
  | { kind: 'received'; orgId: string }
  | { kind: 'sent'; ecosystemId: string };

/** A page of invitations, newest first, with their ecosystem and organisation names. */
export async function listInvitations(
  db: EcoDb,
  filter: InvitationFilter,
  status: InvitationStatus | undefined,
  window: PageWindow,
): Promise<{ rows: InvitationView[]; total: number }> {
  const scope =
    filter.kind === 'lead-sent-by'
      ? and(eq(invitations.type, 'ecosystem'), eq(invitations.createdBy, filter.createdBy))
      : filter.kind === 'received'
        ? and(eq(invitations.type, 'member'), eq(invitations.invitedOrg, filter.orgId))
        : and(eq(invitations.type, 'member'), eq(invitations.ecosystemId, filter.ecosystemId));
  const where = status ? and(scope, eq(invitations.status, status)) : scope;
  const [totals] = await db.select({ total: count() }).from(invitations).where(where);
  const rows = await db
    .select({ invitation: invitations, ecosystem: ecosystems, organisationName: organisations.name })
    .from(invitations)
    .leftJoin(ecosystems, eq(ecosystems.id, invitations.ecosystemId))
    .leftJoin(organisations, eq(organisations.id, invitations.invitedOrg))
    .where(where)
    .orderBy(desc(invitations.createdAt), desc(invitations.id))
    .limit(window.pageSize)
    .offset(window.offset);
  return {
    rows: rows.map((row) => ({
      invitation: row.invitation,
      ecosystem: row.ecosystem ? { id: row.ecosystem.id, name: row.ecosystem.name, description: row.ecosystem.description, createdAt: row.ecosystem.createdAt } : null,
      organisation: row.organisationName !== null ? { name: row.organisationName } : null,
    })),
    total: totals?.total ?? 0,
  };
}

/** One invitation with its names, for answers to single-invitation operations. */
export async function viewInvitation(db: EcoDb, invitation: InvitationRow): Promise<InvitationView> {
  const [ecosystem] = invitation.ecosystemId ? await db.select().from(ecosystems).where(eq(ecosystems.id, invitation.ecosystemId)) : [];
  const [organisation] = invitation.invitedOrg ? await db.select({ name: organisations.name }).from(organisations).where(eq(organisations.id, invitation.invitedOrg)) : [];
  return {
    invitation,
    ecosystem: ecosystem ? { id: ecosystem.id, name: ecosystem.name, description: ecosystem.description, createdAt: ecosystem.createdAt } : null,
    organisation: organisation ?? null,
  };
}

/** The pending lead invitation for an e-mail address (there is at most one). */
export async function findPendingLeadInvitation(db: EcoDb, email: string): Promise<InvitationRow | undefined> {
  const [row] = await db
    .select()
    .from(invitations)
    .where(and(eq(invitations.type, 'ecosystem'), eq(invitations.status, 'pending'), sql`lower(${invitations.email}) = lower(${email})`));
  return row;
}
