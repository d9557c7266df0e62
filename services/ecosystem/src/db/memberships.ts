// Memberships of one ecosystem; callers are authorised for that ecosystem first.
import { randomUUID } from 'node:crypto';
import { and, asc, count, eq, sql } from 'drizzle-orm';
import type { EcosystemRole } from '@tessera/contracts';
import type { PageWindow } from '@tessera/service-kit';
import { ecosystems, memberships, organisations, type MembershipRow } from './schema.js';
import type { EcosystemDb } from './types.js';

export interface MemberView {
  membership: MembershipRow;
  ecosystemName: string;
  organisationName: string;
}

/** The membership of an organisation in an ecosystem, whatever its status. */
export async function findMembership(
  db: EcosystemDb,
  ecosystemId: string,
  orgId: string,
): Promise<MembershipRow | undefined> {
  const [row] = await db
    .select()
    .from(memberships)
    .where(and(eq(memberships.ecosystemId, ecosystemId), eq(memberships.orgId, orgId)));
  return row;
}

export interface MembershipInput {
  ecosystemId: string;
  orgId: string;
  /** The user who created the ecosystem or accepted the invitation. */
  userId: string;
  userEmail: string | null;
}

/** Makes `orgId` the ACTIVE lead of a new ecosystem. */
export async function insertLeadMembership(db: EcosystemDb, input: MembershipInput): Promise<void> {
  await db.insert(memberships).values({ id: randomUUID(), ...input, role: 'Ecosystem Lead', status: 'ACTIVE' });
}

/** Makes `orgId` an ACTIVE member: a new membership, or its existing one active again. */
export async function activateMembership(db: EcosystemDb, input: MembershipInput): Promise<void> {
  await db
    .insert(memberships)
    .values({ id: randomUUID(), ...input, role: 'Ecosystem Member', status: 'ACTIVE' })
    .onConflictDoUpdate({
      target: [memberships.ecosystemId, memberships.orgId],
      set: { status: 'ACTIVE', userId: input.userId, userEmail: input.userEmail, lastChangedAt: sql`now()` },
    });
}

/** Every membership of the ecosystem (the lead's included), oldest first. */
export async function listMembers(
  db: EcosystemDb,
  ecosystemId: string,
  window: PageWindow,
): Promise<{ rows: MemberView[]; total: number }> {
  const where = eq(memberships.ecosystemId, ecosystemId);
  const [totals] = await db.select({ total: count() }).from(memberships).where(where);
  const rows = await db
    .select({ membership: memberships, ecosystemName: ecosystems.name, organisationName: organisations.name })
    .from(memberships)
    .innerJoin(ecosystems, eq(ecosystems.id, memberships.ecosystemId))
    .innerJoin(organisations, eq(organisations.id, memberships.orgId))
    .where(where)
    .orderBy(asc(memberships.createdAt), asc(memberships.id))
    .limit(window.pageSize)
    .offset(window.offset);
  return { rows, total: totals?.total ?? 0 };
}

export interface ActiveOrganisationRow {
  id: string;
  name: string;
  role: EcosystemRole;
  joinedAt: Date;
}

/** Organisations that joined the ecosystem (ACTIVE memberships, the lead's included), oldest first. */
export async function listActiveOrganisations(
  db: EcosystemDb,
  ecosystemId: string,
  window: PageWindow,
): Promise<{ rows: ActiveOrganisationRow[]; total: number }> {
  const where = and(eq(memberships.ecosystemId, ecosystemId), eq(memberships.status, 'ACTIVE'));
  const [totals] = await db.select({ total: count() }).from(memberships).where(where);
  const rows = await db
    .select({ id: organisations.id, name: organisations.name, role: memberships.role, joinedAt: memberships.createdAt })
    .from(memberships)
    .innerJoin(organisations, eq(organisations.id, memberships.orgId))
    .where(where)
    .orderBy(asc(memberships.createdAt), asc(memberships.id))
    .limit(window.pageSize)
    .offset(window.offset);
  return { rows, total: totals?.total ?? 0 };
}
