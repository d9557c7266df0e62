// Members of one ecosystem; callers are authorised for that ecosystem first.
import { and, asc, count, eq } from 'drizzle-orm';
import type { PageWindow } from '@tessera/service-kit';
import { ecosystems, memberships, organisations, type MembershipRow } from './schema.js';
import type { EcoDb } from './db-types.js';

export interface MemberView {
  membership: MembershipRow;
  ecosystemName: string;
  organisationName: string;
}

/** Every membership of the ecosystem (the lead's included), oldest first. */
export async function listMembers(db: EcoDb, ecosystemId: string, window: PageWindow): Promise<{ rows: MemberView[]; total: number }> {
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

/** Organisations that joined the ecosystem (ACTIVE memberships, the lead's included), oldest first. */
export async function listActiveOrganisations(db: EcoDb, ecosystemId: string, window: PageWindow) {
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
