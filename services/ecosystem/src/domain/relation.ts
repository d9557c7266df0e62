import { ErrorCode, type EcosystemRole, type InvitationStatus, type MembershipStatus } from '@tessera/contracts';
import { forbidden, notFound, type OrgRole } from '@tessera/service-kit';

/** Organisation roles that act for an organisation in ecosystem matters. */
export const MANAGING_ROLES: readonly OrgRole[] = ['owner', 'admin'];

/**
 * How a caller stands towards an ecosystem (ECOSYSTEM.md, Who may call what), derived
 * from the service's records and the organisations where the caller is owner/admin.
 */
export type Relation = 'lead' | 'member' | 'invited' | 'outsider';

export interface StandingFacts {
  /** Memberships of the caller's organisations in the ecosystem. */
  memberships: Array<{ orgId: string; role: EcosystemRole; status: MembershipStatus }>;
  /** Member invitations of the caller's organisations in the ecosystem. */
  invitations: Array<{ orgId: string; status: InvitationStatus }>;
}

export interface Standing {
  relation: Relation;
  /** The caller's organisations that give them this relation. */
  orgIds: string[];
}

/** The strongest relation wins: a caller who leads and is also invited elsewhere acts as lead. */
export function deriveStanding(facts: StandingFacts): Standing {
  const active = facts.memberships.filter((m) => m.status === 'ACTIVE');
  const leading = active.filter((m) => m.role === 'Ecosystem Lead').map((m) => m.orgId);
  if (leading.length > 0) return { relation: 'lead', orgIds: leading };
  const members = active.filter((m) => m.role === 'Ecosystem Member').map((m) => m.orgId);
  if (members.length > 0) return { relation: 'member', orgIds: members };
  // An accepted invitation whose membership is no longer ACTIVE still lets the caller know the ecosystem.
  const invited = facts.invitations.map((i) => i.orgId);
  if (invited.length > 0) return { relation: 'invited', orgIds: invited };
  return { relation: 'outsider', orgIds: [] };
}

export interface RequireRelationOptions {
  standing: Standing;
  allowed: readonly Relation[];
  /** The 404 an outsider gets: the same one an unknown id gets. */
  notFoundCode: string;
  notFoundMessage: string;
}

/** Outsiders get 404 (they may not learn the ecosystem exists); others without the right relation 403. */
export function requireRelation(options: RequireRelationOptions): void {
  const { relation } = options.standing;
  if (options.allowed.includes(relation)) return;
  if (relation === 'outsider') throw notFound(options.notFoundMessage, options.notFoundCode);
  throw forbidden(`Only the ecosystem ${describe(options.allowed)} may do this.`, ErrorCode.FORBIDDEN);
}

function describe(allowed: readonly Relation[]): string {
  return allowed
    .map((relation) => (relation === 'lead' ? 'lead' : relation === 'member' ? 'members' : relation))
    .join(' or ');
}
