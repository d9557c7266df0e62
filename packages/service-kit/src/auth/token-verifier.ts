import { readFileSync } from 'node:fs';
import {
  createLocalJWKSet,
  createRemoteJWKSet,
  errors as joseErrors,
  jwtVerify,
  type JWTPayload,
  type JSONWebKeySet,
} from 'jose';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { unauthorized } from '../errors.js';
import type { Principal } from './principal.js';

export interface OidcSettings {
  issuer: string;
  audience: string;
  jwksUri?: string;
  jwksFile?: string;
  /** Inline key set (development key). */
  jwks?: JSONWebKeySet;
}

export type TokenVerifier = (token: string) => Promise<Principal>;

/** Asymmetric algorithms only: a shared-secret or `none` token is never accepted. */
const ALGORITHMS = ['RS256', 'RS384', 'RS512', 'PS256', 'PS384', 'PS512', 'ES256', 'ES384', 'ES512', 'EdDSA'];

/** Verifies bearer tokens with jose: signature against the JWKS, `iss`, `aud`, `exp`. */
export function createTokenVerifier(settings: OidcSettings): TokenVerifier {
  const keySet = settings.jwks
    ? createLocalJWKSet(settings.jwks)
    : settings.jwksFile
      ? createLocalJWKSet(JSON.parse(readFileSync(settings.jwksFile, 'utf8')) as JSONWebKeySet)
      : settings.jwksUri
        ? createRemoteJWKSet(new URL(settings.jwksUri), { timeoutDuration: 3000, cooldownDuration: 30000 })
        : undefined;
  if (!keySet) throw new Error('OIDC settings need OIDC_JWKS_URI or OIDC_JWKS_FILE');
  return async (token) => {
    try {
      const { payload } = await jwtVerify(token, keySet, {
        issuer: settings.issuer,
        audience: settings.audience,
        algorithms: ALGORITHMS,
        clockTolerance: 30,
        requiredClaims: ['exp', 'sub'],
      });
      return principalFromClaims(payload);
    } catch (error) {
      throw unauthorized(describeTokenError(error));
    }
  };
}

function describeTokenError(error: unknown): string {
  if (error instanceof joseErrors.JWTExpired) return 'The access token has expired.';
  if (error instanceof joseErrors.JWTClaimValidationFailed)
    return `The access token is not valid here (${error.claim} claim).`;
  if (error instanceof joseErrors.JWSSignatureVerificationFailed || error instanceof joseErrors.JWKSNoMatchingKey) {
    return 'The access token is not signed by a trusted key.';
  }
  return 'The access token is invalid.';
}

/** Reads Keycloak's layout: `realm_access.roles`, `resource_access[orgId].roles`. */
export function principalFromClaims(payload: JWTPayload): Principal {
  const realmRoles = (payload.realm_access as { roles?: unknown } | undefined)?.roles;
  const resourceAccess = payload.resource_access;
  const orgRoles: Record<string, string[]> = {};
  if (resourceAccess && typeof resourceAccess === 'object') {
    for (const [orgId, access] of Object.entries(resourceAccess as Record<string, unknown>)) {
      const roles = (access as { roles?: unknown } | undefined)?.roles;
      if (Array.isArray(roles)) orgRoles[orgId] = roles.filter((role): role is string => typeof role === 'string');
    }
  }
  return {
    sub: payload.sub!,
    ...(typeof payload.email === 'string' ? { email: payload.email } : {}),
    platformAdmin: Array.isArray(realmRoles) && realmRoles.includes('platform_admin'),
    orgRoles,
  };
}

/**
 * An onRequest hook: sets `request.principal` from `Authorization: Bearer`, or answers
 * 401. With `optional`, a request without the header passes with a null principal (a
 * route that serves some resources publicly decides itself); a header that is present
 * must still be a valid token.
 */
export function createAuthHook(verify: TokenVerifier, options: { optional?: boolean } = {}) {
  return async (request: FastifyRequest, _reply: FastifyReply): Promise<void> => {
    const header = request.headers.authorization;
    if (!header && options.optional) return;
    if (!header) throw unauthorized('Send an access token in the Authorization header (Bearer).');
    const match = /^Bearer\s+([A-Za-z0-9._~+/=-]+)$/i.exec(header);
    if (!match) throw unauthorized('The Authorization header must be "Bearer <access token>".');
    request.principal = await verify(match[1]!);
  };
}
