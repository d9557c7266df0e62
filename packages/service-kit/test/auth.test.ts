import type { webcrypto } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exportJWK, generateKeyPair, SignJWT, type JWK } from 'jose';
import {
  createApp,
  createAuthHook,
  createTokenVerifier,
  DEV_OIDC_AUDIENCE,
  DEV_OIDC_ISSUER,
  ensureDevOidcKey,
  mintDevToken,
  principalOf,
  requireOrgRole,
  resolveOidcSettings,
  oidcConfigRule,
  type App,
} from '../src/index.js';
import { silentLogger } from '../src/testing/index.js';

const ISSUER = 'https://idp.example.com/realms/tessera';
const AUDIENCE = 'tessera-api';

describe('bearer token authentication', () => {
  let app: App;
  let key: webcrypto.CryptoKey;
  let otherKey: webcrypto.CryptoKey;
  const dir = mkdtempSync(join(tmpdir(), 'kit-auth-'));

  const token = (
    claims: Record<string, unknown> = {},
    options: { key?: webcrypto.CryptoKey; iss?: string; aud?: string; exp?: number | string } = {},
  ) =>
    new SignJWT({
      email: 'ada@example.com',
      realm_access: { roles: [] },
      resource_access: { 'org-1': { roles: ['owner'] } },
      ...claims,
    })
      .setProtectedHeader({ alg: 'ES256', kid: 'k1' })
      .setIssuer(options.iss ?? ISSUER)
      .setAudience(options.aud ?? AUDIENCE)
      .setSubject('user-1')
      .setIssuedAt()
      .setExpirationTime(options.exp ?? '5m')
      .sign(options.key ?? key);

  beforeAll(async () => {
    const pair = await generateKeyPair('ES256', { extractable: true });
    key = pair.privateKey;
    otherKey = (await generateKeyPair('ES256')).privateKey;
    const jwk: JWK = { ...(await exportJWK(pair.publicKey)), kid: 'k1', alg: 'ES256' };
    const jwksFile = join(dir, 'jwks.json');
    writeFileSync(jwksFile, JSON.stringify({ keys: [jwk] }));
    const verify = createTokenVerifier({ issuer: ISSUER, audience: AUDIENCE, jwksFile });
    app = await createApp({
      name: 'auth-test',
      title: 't',
      description: 't',
      logger: silentLogger(),
      bodyLimit: 1024,
      readiness: {},
    });
    app.register(async (scoped) => {
      scoped.addHook('onRequest', createAuthHook(verify));
      scoped.get('/v1/orgs/:orgId/things', async (request) => {
        const principal = principalOf(request);
        requireOrgRole(principal, (request.params as { orgId: string }).orgId, ['owner', 'admin']);
        return principal;
      });
    });
    await app.ready();
  });
  afterAll(async () => {
    await app.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const get = async (authorization?: string, orgId = 'org-1') =>
    app.inject({ url: `/v1/orgs/${orgId}/things`, headers: authorization ? { authorization } : {} });

  it('reads Keycloak claims into the principal', async () => {
    const response = await get(`Bearer ${await token({ realm_access: { roles: ['platform_admin'] } })}`);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({
      sub: 'user-1',
      email: 'ada@example.com',
      platformAdmin: true,
      orgRoles: { 'org-1': ['owner'] },
    });
  });

  it('answers 401 for a missing, malformed, expired, foreign-signed, wrong-issuer or wrong-audience token', async () => {
    const cases = [
      undefined,
      'Basic abc',
      'Bearer not-a-jwt',
      `Bearer ${await token({}, { exp: Math.floor(Date.now() / 1000) - 120 })}`,
      `Bearer ${await token({}, { key: otherKey })}`,
      `Bearer ${await token({}, { iss: 'https://evil.example.com' })}`,
      `Bearer ${await token({}, { aud: 'another-api' })}`,
    ];
    for (const authorization of cases) {
      const response = await get(authorization);
      expect(response.statusCode, String(authorization).slice(0, 30)).toBe(401);
      expect(response.json()).toMatchObject({ code: 'UNAUTHORIZED', error: 'Unauthorized' });
    }
  });

  it('refuses an unsigned (alg none) token', async () => {
    const header = Buffer.from(JSON.stringify({ alg: 'none' })).toString('base64url');
    const payload = Buffer.from(JSON.stringify({ sub: 'x', iss: ISSUER, aud: AUDIENCE, exp: 9_999_999_999 })).toString(
      'base64url',
    );
    expect((await get(`Bearer ${header}.${payload}.`)).statusCode).toBe(401);
  });

  it('answers 403 for an organisation where the caller holds no allowed role', async () => {
    expect((await get(`Bearer ${await token()}`, 'org-2')).json()).toMatchObject({
      statusCode: 403,
      code: 'FORBIDDEN',
    });
    const member = await token({ resource_access: { 'org-1': { roles: ['member'] } } });
    expect((await get(`Bearer ${member}`)).statusCode).toBe(403);
    // An inherited property name is not an organisation.
    expect((await get(`Bearer ${await token()}`, '__proto__')).statusCode).toBe(403);
  });

  it('mints development tokens that only the development settings trust', async () => {
    const dataDir = join(dir, 'dev');
    const jwks = await ensureDevOidcKey(dataDir);
    expect(jwks.keys[0]).not.toHaveProperty('d');
    expect(await ensureDevOidcKey(dataDir)).toEqual(jwks);
    const devToken = await mintDevToken(dataDir, {
      sub: 'bob',
      email: 'bob@example.com',
      platformAdmin: true,
      orgRoles: { o1: ['owner', 'verifier'] },
    });
    const settings = await resolveOidcSettings({ NODE_ENV: 'development', DATA_DIR: dataDir });
    expect(settings).toMatchObject({ issuer: DEV_OIDC_ISSUER, audience: DEV_OIDC_AUDIENCE });
    expect(await createTokenVerifier(settings)(devToken)).toEqual({
      sub: 'bob',
      email: 'bob@example.com',
      platformAdmin: true,
      orgRoles: { o1: ['owner', 'verifier'] },
    });
    await expect(resolveOidcSettings({ NODE_ENV: 'production', DATA_DIR: dataDir })).rejects.toThrow(
      'required outside development',
    );
    expect(oidcConfigRule({ NODE_ENV: 'production' })).toContain('OIDC_ISSUER');
    expect(oidcConfigRule({ NODE_ENV: 'development' })).toBeUndefined();
  });
});
