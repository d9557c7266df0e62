import { readFileSync } from 'node:fs';
import {
  createLocalJWKSet,
  createRemoteJWKSet,
  errors as joseErrors,
  jwtVerify,
  type JWTPayload,
  type JSONWebKeySet,
  type JWTHeaderParameters,
  type JWTVerifyGetKey,
} from 'jose';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { systemClock, type Clock } from '../clock.js';
import { unauthorized } from '../errors.js';
import type { Principal } from './principal.js';
import { checkAccessTokenClaims, type AccessTokenClaimRules } from './token-claims.js';
import { VerifiedTokenCache, type VerifiedToken } from './verified-token-cache.js';

export interface OidcSettings {
  issuer: string;
  audience: string;
  jwksUri?: string;
  jwksFile?: string;
  /** Inline key set (development key). */
  jwks?: JSONWebKeySet;
}

export interface TokenVerifierOptions {
  /** Verified tokens a replica keeps (least recently used out first); 0 verifies every signature. */
  cacheSize?: number;
  /** The time `exp` and `nbf` are checked against on every use. */
  clock?: Clock;
}

export type TokenVerifier = (token: string) => Promise<Principal>;

/** Asymmetric algorithms only: a shared-secret or `none` token is never accepted. */
const ALGORITHMS = ['RS256', 'RS384', 'RS512', 'PS256', 'PS384', 'PS512', 'ES256', 'ES384', 'ES512', 'EdDSA'];
const CLOCK_TOLERANCE_SECONDS = 30;
/** A replica's callers at once, with room: a token is one entry whatever its caller sends. */
const DEFAULT_CACHE_SIZE = 10_000;

/**
 * Verifies bearer tokens with jose: signature against the JWKS, `iss`, `aud`, `exp`,
 * `nbf`, `sub`. A token whose signature verified is kept (bounded LRU keyed by its
 * SHA-256) until its `exp`, and its next uses skip the signature — nothing else:
 * every use checks the claims against the clock again (`checkAccessTokenClaims`, the
 * checks `jwtVerify` makes) and asks the key set for the token's key again, which
 * must be the very key that verified it. So what is accepted does not change: a
 * signature check is a pure function of the token's bytes and the key, a remote key
 * set still reloads when stale (and a key it no longer holds, or a new key object
 * after a reload, sends the token through the full verification), and an expired or
 * not-yet-valid token is refused as before.
 */
export function createTokenVerifier(settings: OidcSettings, options: TokenVerifierOptions = {}): TokenVerifier {
  const keySet = settings.jwks
    ? createLocalJWKSet(settings.jwks)
    : settings.jwksFile
      ? createLocalJWKSet(JSON.parse(readFileSync(settings.jwksFile, 'utf8')) as JSONWebKeySet)
      : settings.jwksUri
        ? createRemoteJWKSet(new URL(settings.jwksUri), { timeoutDuration: 3000, cooldownDuration: 30000 })
        : undefined;
  if (!keySet) throw new Error('OIDC settings need OIDC_JWKS_URI or OIDC_JWKS_FILE');
  const clock = options.clock ?? systemClock;
  const cacheSize = options.cacheSize ?? DEFAULT_CACHE_SIZE;
  const cache = cacheSize > 0 ? new VerifiedTokenCache(cacheSize) : undefined;
  const rules: AccessTokenClaimRules = {
    issuer: settings.issuer,
    audience: settings.audience,
    clockToleranceSeconds: CLOCK_TOLERANCE_SECONDS,
    requiredClaims: ['exp', 'sub'],
  };
  return async (token) => {
    const now = clock();
    try {
      const cached = cache?.get(token, now.getTime());
      if (cached && (await resolvesToSameKey(keySet, cached))) {
        checkAccessTokenClaims(cached.payload, rules, now);
        return cached.principal;
      }
      let key: unknown;
      const resolveKey: JWTVerifyGetKey = async (header, jws) => (key = await keySet(header, jws));
      const { payload, protectedHeader } = await jwtVerify(token, resolveKey, {
        issuer: rules.issuer,
        audience: rules.audience,
        algorithms: ALGORITHMS,
        clockTolerance: rules.clockToleranceSeconds,
        requiredClaims: [...rules.requiredClaims],
        currentDate: now,
      });
      const principal = freezePrincipal(principalFromClaims(payload));
      // jwtVerify required `exp`, a number.
      cache?.set(token, {
        protectedHeader,
        payload,
        key,
        usableUntilMs: ((payload.exp as number) + rules.clockToleranceSeconds) * 1000,
        principal,
      });
      return principal;
    } catch (error) {
      throw unauthorized(describeTokenError(error));
    }
  };
}

/** True when the key set still resolves the token's header to the key that verified it (no reload, key still there). */
async function resolvesToSameKey(
  keySet: (header: JWTHeaderParameters) => Promise<unknown>,
  cached: VerifiedToken,
): Promise<boolean> {
  try {
    return (await keySet(cached.protectedHeader)) === cached.key;
  } catch {
    // No such key any more, several candidates, a failed reload: the full verification decides and explains.
    return false;
  }
}

/** The same principal object answers every use of a cached token: nothing may change it. */
function freezePrincipal(principal: Principal): Principal {
  for (const roles of Object.values(principal.orgRoles)) Object.freeze(roles);
  Object.freeze(principal.orgRoles);
  return Object.freeze(principal);
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
