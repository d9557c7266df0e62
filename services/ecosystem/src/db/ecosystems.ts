// Ecosystems. Callers are authorised first (ECOSYSTEM.md); lists are scoped to the
// organisations the caller acts for.
import { randomUUID } from 'node:crypto';
import { and, count, countDistinct, desc, eq, inArray, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { EcosystemRole } from '@tessera/contracts';
import type { PageWindow } from '@tessera/service-kit';
import { ecosystems, invitations, memberships, organisations, type EcosystemRow } from './schema.js';
import { returnUniqueConflicts, type Conflict, type EcosystemDb } from './types.js';

export async function findEcosystem(db: EcosystemDb, id: string): Promise<EcosystemRow | undefined> {
  const [row] = await db.select().from(ecosystems).where(eq(ecosystems.id, id));
  return row;
}

export interface InsertEcosystemInput {
  name: string;
  description: string;
  tags: string[] | null;
  autoEndorsement: boolean;
  logoUrl: string | null;
  userId: string;
}

/** A new ecosystem, or `{ conflict: 'name' }` when the name is taken (names ignore case). */
export async function insertEcosystem(
  db: EcosystemDb,
  input: InsertEcosystemInput,
): Promise<EcosystemRow | Conflict<'name'>> {
  return returnUniqueConflicts(
    async () => {
      const [row] = await db
        .insert(ecosystems)
        .values({
          id: randomUUID(),
          name: input.name,
          description: input.description,
          tags: input.tags,
          autoEndorsement: input.autoEndorsement,
          logoUrl: input.logoUrl,
          createdBy: input.userId,
          lastChangedBy: input.userId,
        })
        .returning();
      return row!;
    },
    { ecosystems_name_lower_uq: 'name' },
  );
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
export async function listEcosystemsOfOrgs(
  db: EcosystemDb,
  orgIds: string[],
  window: PageWindow,
  /** Only this ecosystem (the read of one: its entry as the list shows it). */
  ecosystemId?: string,
): Promise<{ rows: EcosystemListRow[]; total: number }> {
  if (orgIds.length === 0) return { rows: [], total: 0 };
  const mine = and(
    inArray(memberships.orgId, orgIds),
    eq(memberships.status, 'ACTIVE'),
    ecosystemId ? eq(memberships.ecosystemId, ecosystemId) : undefined,
  );
  const [totals] = await db
    .select({ total: countDistinct(memberships.ecosystemId) })
    .from(memberships)
    .where(mine);
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
    .innerJoin(
      leadMembership,
      and(eq(leadMembership.ecosystemId, ecosystems.id), eq(leadMembership.role, 'Ecosystem Lead')),
    )
    .innerJoin(leadOrg, eq(leadOrg.id, leadMembership.orgId))
    .where(mine)
    .groupBy(ecosystems.id, leadOrg.id)
    .orderBy(desc(ecosystems.createdAt), desc(ecosystems.id))
    .limit(window.pageSize)
    .offset(window.offset);
  return { rows, total: totals?.total ?? 0 };
}

/** Platform-wide counts for the admin dashboard (ECOSYSTEM.md, Ecosystem formation). */
export async function countDashboard(
  db: EcosystemDb,
): Promise<{ ecosystem: number; invitations: number; activeOrgs: number }> {
  const [[ecosystemCount], [invitationCount], [activeOrgCount]] = await Promise.all([
    db.select({ n: count() }).from(ecosystems),
    db.select({ n: count() }).from(invitations).where(eq(invitations.type, 'ecosystem')),
    db
      .select({ n: countDistinct(memberships.orgId) })
      .from(memberships)
      .where(eq(memberships.status, 'ACTIVE')),
  ]);
  return {
    ecosystem: ecosystemCount?.n ?? 0,
    invitations: invitationCount?.n ?? 0,
    activeOrgs: activeOrgCount?.n ?? 0,
  };
}
