// Lead and member invitations. Lead invitations are scoped to the admin who sent them;
// member invitations to their ecosystem or to the invited organisation.
import { randomUUID } from 'node:crypto';
import { and, count, desc, eq, inArray, sql, type SQL } from 'drizzle-orm';
import type { InvitationStatus } from '@tessera/contracts';
import type { PageWindow } from '@tessera/service-kit';
import { ecosystems, invitations, organisations, type InvitationRow } from './schema.js';
import { returnUniqueConflicts, type Conflict, type EcosystemDb } from './types.js';

/** An invitation with the names the listings show (`ecosystem`, `organisation`). */
export interface InvitationView {
  invitation: InvitationRow;
  ecosystem: { id: string; name: string; description: string; createdAt: Date } | null;
  organisation: { name: string } | null;
}

/** A new pending lead invitation, or `{ conflict: 'pending' }` when the e-mail (ignoring case) has one. */
export async function insertLeadInvitation(
  db: EcosystemDb,
  input: { email: string; createdBy: string },
): Promise<InvitationRow | Conflict<'pending'>> {
  return returnUniqueConflicts(
    async () => {
      const [row] = await db
        .insert(invitations)
        .values({
          id: randomUUID(),
          type: 'ecosystem',
          email: input.email,
          status: 'pending',
          createdBy: input.createdBy,
          lastChangedBy: input.createdBy,
        })
        .returning();
      return row!;
    },
    { invitations_pending_lead_email_uq: 'pending' },
  );
}

/** The pending lead invitation for an e-mail address (there is at most one). */
export async function findPendingLeadInvitation(db: EcosystemDb, email: string): Promise<InvitationRow | undefined> {
  const [row] = await db
    .select()
    .from(invitations)
    .where(
      and(
        eq(invitations.type, 'ecosystem'),
        eq(invitations.status, 'pending'),
        sql`lower(${invitations.email}) = lower(${email})`,
      ),
    );
  return row;
}

export interface ClaimLeadInvitationInput {
  email: string;
  ecosystemId: string;
  orgId: string;
  userId: string;
}

/**
 * Marks the pending lead invitation of `email` accepted for the new ecosystem. The
 * conditional UPDATE lets one of several simultaneous claims through; undefined for
 * the others (and when there is no pending invitation).
 */
export async function claimLeadInvitation(
  db: EcosystemDb,
  input: ClaimLeadInvitationInput,
): Promise<{ id: string } | undefined> {
  const [claimed] = await db
    .update(invitations)
    .set({
      status: 'accepted',
      ecosystemId: input.ecosystemId,
      invitedOrg: input.orgId,
      userId: input.userId,
      lastChangedBy: input.userId,
      lastChangedAt: sql`now()`,
    })
    .where(
      and(
        eq(invitations.type, 'ecosystem'),
        eq(invitations.status, 'pending'),
        sql`lower(${invitations.email}) = lower(${input.email})`,
      ),
    )
    .returning({ id: invitations.id });
  return claimed;
}

export interface InsertMemberInvitationInput {
  ecosystemId: string;
  orgId: string;
  email: string;
  /** The organisation owner's user id, so the invitation names whom it waits for. */
  ownerUserId: string;
  createdBy: string;
}

/**
 * A new pending member invitation; undefined when the organisation has an invitation
 * row in this ecosystem already (one per ecosystem and organisation, under a unique index).
 */
export async function insertMemberInvitation(
  db: EcosystemDb,
  input: InsertMemberInvitationInput,
): Promise<InvitationRow | undefined> {
  const [inserted] = await db
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
  return inserted;
}

/** Puts a rejected member invitation back to pending; undefined when it is not rejected. */
export async function reopenRejectedInvitation(
  db: EcosystemDb,
  input: InsertMemberInvitationInput,
): Promise<InvitationRow | undefined> {
  const [reopened] = await db
    .update(invitations)
    .set({
      status: 'pending',
      email: input.email,
      userId: input.ownerUserId,
      lastChangedBy: input.createdBy,
      lastChangedAt: sql`now()`,
    })
    .where(and(memberInvitationOf(input.ecosystemId, input.orgId), eq(invitations.status, 'rejected')))
    .returning();
  return reopened;
}

/** The member invitation of an organisation in an ecosystem. */
export async function findMemberInvitation(
  db: EcosystemDb,
  ecosystemId: string,
  orgId: string,
): Promise<InvitationRow | undefined> {
  const [row] = await db.select().from(invitations).where(memberInvitationOf(ecosystemId, orgId));
  return row;
}

/** Member invitations of the caller's organisations in one ecosystem. */
export async function findMemberInvitations(
  db: EcosystemDb,
  ecosystemId: string,
  orgIds: string[],
): Promise<InvitationRow[]> {
  if (orgIds.length === 0) return [];
  return db
    .select()
    .from(invitations)
    .where(
      and(
        eq(invitations.type, 'member'),
        eq(invitations.ecosystemId, ecosystemId),
        inArray(invitations.invitedOrg, orgIds),
      ),
    );
}

export interface ClosePendingInvitationInput {
  ecosystemId: string;
  orgId: string;
  status: 'accepted' | 'rejected';
  userId: string;
}

/**
 * Moves a pending member invitation to accepted or rejected. The conditional UPDATE
 * lets exactly one of several simultaneous answers through; undefined for the others
 * (and when the invitation is not pending).
 */
export async function closePendingInvitation(
  db: EcosystemDb,
  input: ClosePendingInvitationInput,
): Promise<InvitationRow | undefined> {
  const [updated] = await db
    .update(invitations)
    .set({ status: input.status, lastChangedBy: input.userId, lastChangedAt: sql`now()` })
    .where(and(memberInvitationOf(input.ecosystemId, input.orgId), eq(invitations.status, 'pending')))
    .returning();
  return updated;
}

function memberInvitationOf(ecosystemId: string, orgId: string): SQL {
  return and(
    eq(invitations.type, 'member'),
    eq(invitations.ecosystemId, ecosystemId),
    eq(invitations.invitedOrg, orgId),
  )!;
}

export type InvitationFilter =
  | { kind: 'lead-sent-by'; createdBy: string }
  | { kind: 'received'; orgId: string }
  | { kind: 'sent'; ecosystemId: string };

/** A page of invitations, newest first, with their ecosystem and organisation names. */
export async function listInvitations(
  db: EcosystemDb,
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
      ecosystem: row.ecosystem
        ? {
            id: row.ecosystem.id,
            name: row.ecosystem.name,
            description: row.ecosystem.description,
            createdAt: row.ecosystem.createdAt,
          }
        : null,
      organisation: row.organisationName !== null ? { name: row.organisationName } : null,
    })),
    total: totals?.total ?? 0,
  };
}

/** One invitation with its names, for answers to single-invitation operations. */
export async function viewInvitation(db: EcosystemDb, invitation: InvitationRow): Promise<InvitationView> {
  const [ecosystem] = invitation.ecosystemId
    ? await db.select().from(ecosystems).where(eq(ecosystems.id, invitation.ecosystemId))
    : [];
  const [organisation] = invitation.invitedOrg
    ? await db
        .select({ name: organisations.name })
        .from(organisations)
        .where(eq(organisations.id, invitation.invitedOrg))
    : [];
  return {
    invitation,
    ecosystem: ecosystem
      ? { id: ecosystem.id, name: ecosystem.name, description: ecosystem.description, createdAt: ecosystem.createdAt }
      : null,
    organisation: organisation ?? null,
  };
}
