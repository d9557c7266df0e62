import type { FastifyRequest } from 'fastify';
import { forbidden, unauthorized } from '../errors.js';

/** Who is calling, read from a verified access token (Keycloak's claim layout). */
export interface Principal {
  sub: string;
  email?: string;
  /** `realm_access.roles` contains `platform_admin`. */
  platformAdmin: boolean;
  /** `resource_access[orgId].roles`, per organisation id. */
  orgRoles: Record<string, string[]>;
}

export type OrgRole = 'owner' | 'admin' | 'verifier' | 'member';

declare module 'fastify' {
  interface FastifyRequest {
    /** Set by the auth hook; declared on every request with `decorateRequest` (`createApp`). */
    principal: Principal | null;
  }
}

/** The authenticated caller; 401 when the route's auth hook did not run or found no token. */
export function principalOf(request: FastifyRequest): Principal {
  if (!request.principal) throw unauthorized();
  return request.principal;
}

export function hasOrgRole(principal: Principal, orgId: string, roles: readonly OrgRole[]): boolean {
  const held = Object.hasOwn(principal.orgRoles, orgId) ? principal.orgRoles[orgId] : undefined;
  return !!held && held.some((role) => (roles as readonly string[]).includes(role));
}

/** 403 unless the caller holds one of `roles` in `orgId` (ARCHITECTURE.md: a named org without a role is 403). */
export function requireOrgRole(principal: Principal, orgId: string, roles: readonly OrgRole[]): void {
  if (!hasOrgRole(principal, orgId, roles)) {
    throw forbidden(`You need one of the roles ${roles.join(', ')} in organisation ${orgId}.`);
  }
}

export function requirePlatformAdmin(principal: Principal): void {
  if (!principal.platformAdmin) throw forbidden('Only a platform admin may do this.');
}

/** Organisations in which the caller holds one of `roles`. */
export function orgsWithRole(principal: Principal, roles: readonly OrgRole[]): string[] {
  return Object.keys(principal.orgRoles).filter((orgId) => hasOrgRole(principal, orgId, roles));
}
