// Facts about the caller's organisations in one ecosystem, for deriveStanding.
import { and, eq, inArray } from 'drizzle-orm';
import type { StandingFacts } from '../domain/relation.js';
import { invitations, memberships } from './schema.js';
import type { EcosystemDb } from './types.js';

export async function loadStandingFacts(
  db: EcosystemDb,
  ecosystemId: string,
  orgIds: string[],
): Promise<StandingFacts> {
  if (orgIds.length === 0) return { memberships: [], invitations: [] };
  const [membershipRows, invitationRows] = await Promise.all([
    db
      .select({ orgId: memberships.orgId, role: memberships.role, status: memberships.status })
      .from(memberships)
      .where(and(eq(memberships.ecosystemId, ecosystemId), inArray(memberships.orgId, orgIds))),
    db
      .select({ orgId: invitations.invitedOrg, status: invitations.status })
      .from(invitations)
      .where(
        and(
          eq(invitations.ecosystemId, ecosystemId),
          eq(invitations.type, 'member'),
          inArray(invitations.invitedOrg, orgIds),
        ),
      ),
  ]);
  return {
    memberships: membershipRows,
    invitations: invitationRows.map((row) => ({ orgId: row.orgId!, status: row.status })),
  };
}

/** True when `orgId` is the ecosystem's lead or an ACTIVE member. */
export async function isActiveParticipant(db: EcosystemDb, ecosystemId: string, orgId: string): Promise<boolean> {
  const [row] = await db
    .select({ id: memberships.id })
    .from(memberships)
    .where(
      and(eq(memberships.ecosystemId, ecosystemId), eq(memberships.orgId, orgId), eq(memberships.status, 'ACTIVE')),
    );
  return !!row;
}
