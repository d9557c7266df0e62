import { exportJWK, generateKeyPair, SignJWT, type CryptoKey, type JSONWebKeySet } from 'jose';
import { createTokenVerifier, type TokenVerifier } from '../auth/token-verifier.js';

export const TEST_OIDC_ISSUER = 'https://idp.tessera.test/realms/tessera';
export const TEST_OIDC_AUDIENCE = 'tessera-api';

/** An access token to mint, in Keycloak's claim layout. */
export interface TestTokenSpec {
  sub?: string;
  email?: string;
  platformAdmin?: boolean;
  /** Roles per organisation id (`resource_access`). */
  orgRoles?: Record<string, string[]>;
  expiresIn?: string | number;
  issuer?: string;
  audience?: string;
  /** Sign with another key than the trusted one. */
  key?: CryptoKey;
}

/** A test OpenID Connect provider: an ES256 key the service trusts, minting tokens for callers. */
export interface TestIdentityProvider {
  issuer: string;
  audience: string;
  jwks: JSONWebKeySet;
  /** A verifier trusting this provider, as `buildApp` takes it. */
  verifyToken: TokenVerifier;
  /** The OIDC variables a service config needs to trust this provider (the JWKS is passed to `verifyToken`). */
  configEnv: Record<string, string>;
  mint(spec?: TestTokenSpec): Promise<string>;
  /** `{ authorization: 'Bearer …' }` for a caller with `roles` in `orgId`. */
  authHeader(orgId: string, roles: string[], spec?: TestTokenSpec): Promise<{ authorization: string }>;
}

export async function createTestIdentityProvider(
  options: { issuer?: string; audience?: string } = {},
): Promise<TestIdentityProvider> {
  const issuer = options.issuer ?? TEST_OIDC_ISSUER;
  const audience = options.audience ?? TEST_OIDC_AUDIENCE;
  const { publicKey, privateKey } = await generateKeyPair('ES256');
  const jwks: JSONWebKeySet = {
    keys: [{ ...(await exportJWK(publicKey)), kid: 'test-key', alg: 'ES256', use: 'sig' }],
  };
  const mint = (spec: TestTokenSpec = {}) =>
    new SignJWT({
      ...(spec.email ? { email: spec.email } : {}),
      realm_access: { roles: spec.platformAdmin ? ['platform_admin'] : ['offline_access'] },
      resource_access: Object.fromEntries(Object.entries(spec.orgRoles ?? {}).map(([org, roles]) => [org, { roles }])),
    })
      .setProtectedHeader({ alg: 'ES256', kid: 'test-key', typ: 'JWT' })
      .setIssuer(spec.issuer ?? issuer)
      .setAudience(spec.audience ?? audience)
      .setSubject(spec.sub ?? 'user-1')
      .setIssuedAt()
      .setExpirationTime(spec.expiresIn ?? '10m')
      .sign(spec.key ?? privateKey);
  return {
    issuer,
    audience,
    jwks,
    verifyToken: createTokenVerifier({ issuer, audience, jwks }),
    configEnv: { OIDC_ISSUER: issuer, OIDC_AUDIENCE: audience, OIDC_JWKS_URI: 'https://idp.tessera.test/jwks' },
    mint,
    authHeader: async (orgId, roles, spec = {}) => ({
      authorization: `Bearer ${await mint({ ...spec, orgRoles: { [orgId]: roles } })}`,
    }),
  };
}
