import { decodeJwt } from 'jose';

/** The organisation roles the platform's tokens carry (ARCHITECTURE.md, Authentication). */
export const ORG_ROLES = ['owner', 'admin', 'verifier', 'member'] as const;
export type OrgRole = (typeof ORG_ROLES)[number];

/** Who is signed in, as the console shows it: read from the access token the services will check. */
export interface SignedInUser {
  sub: string;
  email?: string;
  name?: string;
  platformAdmin: boolean;
  /** Roles per organisation id (Keycloak's `resource_access`), only the platform's roles. */
  orgRoles: Record<string, OrgRole[]>;
}

/**
 * The user an access token names, in Keycloak's claim layout. The console obtained the
 * token itself (from the provider's token endpoint, or minted it in development), so it
 * reads without verifying: the services verify every token they are sent, and what the
 * console derives here only decides what it shows, never what is allowed.
 */
export function userOfAccessToken(accessToken: string, idTokenClaims: Record<string, unknown> = {}): SignedInUser {
  const claims = decodeJwt(accessToken) as Record<string, unknown>;
  const realmRoles = (claims.realm_access as { roles?: unknown } | undefined)?.roles;
  const resourceAccess = (claims.resource_access ?? {}) as Record<string, { roles?: unknown } | undefined>;
  const orgRoles: Record<string, OrgRole[]> = {};
  for (const [orgId, entry] of Object.entries(resourceAccess)) {
    const roles = Array.isArray(entry?.roles)
      ? ORG_ROLES.filter((role) => (entry.roles as unknown[]).includes(role))
      : [];
    if (roles.length > 0) orgRoles[orgId] = roles;
  }
  const text = (value: unknown) => (typeof value === 'string' && value.length > 0 ? value : undefined);
  const email = text(claims.email) ?? text(idTokenClaims.email);
  const name = text(idTokenClaims.name) ?? text(claims.name) ?? text(idTokenClaims.preferred_username);
  return {
    sub: text(claims.sub) ?? text(idTokenClaims.sub) ?? 'unknown',
    ...(email ? { email } : {}),
    ...(name ? { name } : {}),
    platformAdmin: Array.isArray(realmRoles) && realmRoles.includes('platform_admin'),
    orgRoles,
  };
}

/** When the access token stops being accepted (its `exp`), in ms since the epoch; undefined when it has none. */
export function accessTokenExpiry(accessToken: string): number | undefined {
  const { exp } = decodeJwt(accessToken);
  return typeof exp === 'number' ? exp * 1000 : undefined;
}

/** What a role may do in an organisation, as the verifier and ecosystem services decide it. */
export const can = {
  /** Verifiers, templates, anchors, certificates, webhooks, sessions: owner, admin, verifier. */
  manageVerification: (roles: readonly OrgRole[]) => roles.some((role) => role !== 'member'),
  /** The read audit of presentation data: owners and admins only (the `verifier` role reads the data). */
  auditReads: (roles: readonly OrgRole[]) => roles.includes('owner') || roles.includes('admin'),
  /**
   * Who the organisation is to wallets — certificate signing requests, registration certificates: owners and
   * admins (the verifier refuses the `verifier` role before validation).
   */
  manageIdentity: (roles: readonly OrgRole[]) => roles.includes('owner') || roles.includes('admin'),
  /** The directory entry and ecosystem creation: owners. */
  own: (roles: readonly OrgRole[]) => roles.includes('owner'),
  /** Leading or joining ecosystems: owners and admins. */
  actInEcosystems: (roles: readonly OrgRole[]) => roles.includes('owner') || roles.includes('admin'),
};
