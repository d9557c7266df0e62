import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { exportJWK, generateKeyPair, importJWK, SignJWT, type JWK, type JSONWebKeySet } from 'jose';

/** Issuer and audience of development tokens. Trusted only in development mode. */
export const DEV_OIDC_ISSUER = 'urn:tessera:dev-oidc';
export const DEV_OIDC_AUDIENCE = 'tessera';

interface DevKeyFile {
  privateJwk: JWK;
}

function keyPath(dataDir: string): string {
  return join(dataDir, 'dev-oidc', 'signing-key.json');
}

/** Creates the development signing key under `<dataDir>/dev-oidc/` once; returns its public JWKS. */
export async function ensureDevOidcKey(dataDir: string): Promise<JSONWebKeySet> {
  const path = keyPath(dataDir);
  if (!existsSync(path)) {
    const { privateKey } = await generateKeyPair('ES256', { extractable: true });
    const privateJwk = {
      ...(await exportJWK(privateKey)),
      kid: `dev-${Date.now().toString(36)}`,
      alg: 'ES256',
      use: 'sig',
    };
    mkdirSync(join(dataDir, 'dev-oidc'), { recursive: true });
    writeFileSync(path, JSON.stringify({ privateJwk } satisfies DevKeyFile, null, 2), { mode: 0o600 });
  }
  return publicJwks(readDevKey(dataDir).privateJwk);
}

function readDevKey(dataDir: string): DevKeyFile {
  return JSON.parse(readFileSync(keyPath(dataDir), 'utf8')) as DevKeyFile;
}

function publicJwks(privateJwk: JWK): JSONWebKeySet {
  const { d: _d, ...publicJwk } = privateJwk;
  return { keys: [publicJwk] };
}

export interface DevTokenOptions {
  sub: string;
  email?: string;
  platformAdmin?: boolean;
  /** Roles per organisation id. */
  orgRoles?: Record<string, string[]>;
  expiresInSeconds?: number;
}

/** Signs a development access token in Keycloak's claim layout with the local key. */
export async function mintDevToken(dataDir: string, options: DevTokenOptions): Promise<string> {
  await ensureDevOidcKey(dataDir);
  const { privateJwk } = readDevKey(dataDir);
  const key = await importJWK(privateJwk, 'ES256');
  return new SignJWT({
    ...(options.email ? { email: options.email } : {}),
    realm_access: { roles: options.platformAdmin ? ['platform_admin'] : [] },
    resource_access: Object.fromEntries(Object.entries(options.orgRoles ?? {}).map(([org, roles]) => [org, { roles }])),
  })
    .setProtectedHeader({ alg: 'ES256', kid: privateJwk.kid!, typ: 'JWT' })
    .setIssuer(DEV_OIDC_ISSUER)
    .setAudience(DEV_OIDC_AUDIENCE)
    .setSubject(options.sub)
    .setIssuedAt()
    .setExpirationTime(`${options.expiresInSeconds ?? 3600}s`)
    .sign(key);
}
