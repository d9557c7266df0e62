// Ecosystems and their formation. Callers are authorised first (ECOSYSTEM.md); lists
// are scoped to the organisations the caller acts for.
import { randomUUID } from 'node:crypto';
import { and, count, countDistinct, desc, eq, inArray, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import { ErrorCode, type EcosystemCreateBody, type EcosystemRole } from '@tessera/contracts';
import { conflict, forbidden, type PageWindow } from '@tessera/service-kit';
import { ecosystems, invitations, memberships, organisations, type EcosystemRow } from './schema.js';
import { withConflicts, type EcoDb } from './db-types.js';

export async function findEcosystem(db: EcoDb, id: string): Promise<EcosystemRow | undefined> {
  const [row] = await db.select().from(ecosystems).where(eq(ecosystems.id, id));
  return row;
}

export interface CreateEcosystemInput {
  body: EcosystemCreateBody & { name: string };
  orgId: string;
  userId: string;
  userEmail: string;
}

/**
 * Creates the ecosystem, makes `orgId` its lead and marks the caller's pending lead
 * invitation accepted, in one transaction. The invitation is claimed with a
 * conditional UPDATE, so two simultaneous creations from one invitation make one ecosystem.
 */
export async function createEcosystemFromInvitation(db: EcoDb, input: CreateEcosystemInput): Promise<EcosystemRow> {
  return withConflicts(
    () =>
      db.transaction(async (tx) => {
        const [ecosystem] = await tx
          .insert(ecosystems)
          .values({
            id: randomUUID(),
            name: input.body.name,
            description: input.body.description,
            tags: input.body.tags ?? null,
            autoEndorsement: input.body.autoEndorsement ?? false,
            logoUrl: input.body.logoUrl ?? null,
            createdBy: input.userId,
            lastChangedBy: input.userId,
          })
          .returning();
        const claimed = await tx
          .update(invitations)
          .set({ status: 'accepted', ecosystemId: ecosystem!.id, invitedOrg: input.orgId, userId: input.userId, lastChangedBy: input.userId, lastChangedAt: sql`now()` })
          .where(and(eq(invitations.type, 'ecosystem'), eq(invitations.status, 'pending'), sql`lower(${invitations.email}) = lower(${input.userEmail})`))
          .returning({ id: invitations.id });
        if (claimed.length === 0) throw noLeadInvitation();
        await tx.insert(memberships).values({
          id: randomUUID(),
          ecosystemId: ecosystem!.id,
          orgId: input.orgId,
          role: 'Ecosystem Lead',
          status: 'ACTIVE',
          userId: input.userId,
          userEmail: input.userEmail,
        });
        return ecosystem!;
      }),
    { ecosystems_name_lower_uq: () => conflict(ErrorCode.ECOSYSTEM_NAME_TAKEN, `An ecosystem named "${input.body.name}" exists already; choose another name.`) },
  );
}

export function noLeadInvitation() {
  return forbidden('Creating an ecosystem needs a pending lead invitation for the e-mail address of your account.', ErrorCode.NO_LEAD_INVITATION);
}

export interface EcosystemListRow {
  id: string;
  name: string;
  description: string;
  createdAt: Date;
  role: EcosystemRole;
  memberCount: number;
  leadOrgId: string;
  leadOrgName: string;
}

/**
 * Ecosystems where one of `orgIds` is the lead or an ACTIVE member, one entry per
 * ecosystem (as lead when any of them leads it), newest first.
 */
export async function listEcosystemsOfOrgs(db: EcoDb, orgIds: string[], window: PageWindow): Promise<{ rows: EcosystemListRow[]; total: number }> {
  if (orgIds.length === 0) return { rows: [], total: 0 };
  const mine = and(inArray(memberships.orgId, orgIds), eq(memberships.status, 'ACTIVE'));
  const [totals] = await db.select({ total: countDistinct(memberships.ecosystemId) }).from(memberships).where(mine);
  const leadMembership = alias(memberships, 'lead_membership');
  const leadOrg = alias(organisations, 'lead_org');
  const rows = await db
    .select({
      id: ecosystems.id,
      name: ecosystems.name,
      description: ecosystems.description,
      createdAt: ecosystems.createdAt,
      role: sql<EcosystemRole>`case when bool_or(${memberships.role} = 'Ecosystem Lead') then 'Ecosystem Lead' else 'Ecosystem Member' end`,
      memberCount: sql<number>`(select count(*)::int from ${memberships} m where m.ecosystem_id = ${ecosystems.id} and m.status = 'ACTIVE')`,
      leadOrgId: leadOrg.id,
      leadOrgName: leadOrg.name,
    })
    .from(memberships)
    .innerJoin(ecosystems, eq(ecosystems.id, memberships.ecosystemId))
    .innerJoin(leadMembership, and(eq(leadMembership.ecosystemId, ecosystems.id), eq(leadMembership.role, 'Ecosystem Lead')))
    .innerJoin(leadOrg, eq(leadOrg.id, leadMembership.orgId))
    .where(mine)
    .groupBy(ecosystems.id, leadOrg.id)
    .orderBy(desc(ecosystems.createdAt), desc(ecosystems.id))
    .limit(window.pageSize)
    .offset(window.offset);
  return { rows, total: totals?.total ?? 0 };
}

/** Platform-wide counts for the admin dashboard (ECOSYSTEM.md, Ecosystem formation). */
export async function countDashboard(db: EcoDb): Promise<{ ecosystem: number; invitations: number; activeOrgs: number }> {
  const [[ecosystemCount], [invitationCount], [activeOrgCount]] = await Promise.all([
    db.select({ n: count() }).from(ecosystems),
    db.select({ n: count() }).from(invitations).where(eq(invitations.type, 'ecosystem')),
    db.select({ n: countDistinct(memberships.orgId) }).from(memberships).where(eq(memberships.status, 'ACTIVE')),
  ]);
  return { ecosystem: ecosystemCount?.n ?? 0, invitations: invitationCount?.n ?? 0, activeOrgs: activeOrgCount?.n ?? 0 };
}
