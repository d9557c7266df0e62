import { describe, expect, it } from 'vitest';
import { exportJWK, generateKeyPair, SignJWT } from 'jose';
import { createTokenVerifier, InProcessBus } from '@tessera/service-kit';
import { captureLogger, createTestDatabase, InProcessHub } from '@tessera/service-kit/testing';
import { buildApp } from '../src/app.js';
import { loadEcosystemConfig } from '../src/config.js';
import { schema } from '../src/db/schema.js';
import { MIGRATIONS_FOLDER } from '../src/db/migrations-folder.js';
import { ResolutionCache } from '../src/cache/resolution-cache.js';

describe('secrets in logs', () => {
  it('never logs bearer tokens, valid or not, even at trace level', async () => {
    const { privateKey, publicKey } = await generateKeyPair('ES256');
    const jwks = { keys: [{ ...(await exportJWK(publicKey)), kid: 'k', alg: 'ES256' }] };
    const logs = captureLogger('ecosystem', 'trace');
    const testDb = await createTestDatabase({ schema, service: 'ecosystem', migrationsFolder: MIGRATIONS_FOLDER });
    const config = loadEcosystemConfig({ NODE_ENV: 'test', OIDC_ISSUER: 'https://idp', OIDC_AUDIENCE: 'api', OIDC_JWKS_FILE: '/unused', LOG_LEVEL: 'trace' });
    const bus = new InProcessBus(new InProcessHub());
    const app = await buildApp({ config, database: testDb.database, bus, verifyToken: createTokenVerifier({ issuer: 'https://idp', audience: 'api', jwks }), logger: logs.logger, resolutions: new ResolutionCache({ ttlMs: 0, maxEntries: 0 }) });
    const token = await new SignJWT({ realm_access: { roles: ['platform_admin'] } })
      .setProtectedHeader({ alg: 'ES256', kid: 'k' })
      .setIssuer('https://idp')
      .setAudience('api')
      .setSubject('admin')
      .setExpirationTime('5m')
      .sign(privateKey);
    const forged = `${token.slice(0, -10)}AAAAAAAAAA`;
    expect((await app.inject({ url: '/v1/invitations', headers: { authorization: `Bearer ${token}` } })).statusCode).toBe(200);
    expect((await app.inject({ url: '/v1/invitations', headers: { authorization: `Bearer ${forged}` } })).statusCode).toBe(401);
    expect((await app.inject({ method: 'POST', url: '/v1/invitations', headers: { authorization: `Bearer ${token}` }, payload: { email: 'not-an-email' } })).statusCode).toBe(400);
    await app.close();
    await bus.close();
    await testDb.drop();
    expect(logs.lines().length).toBeGreaterThan(5);
    const signature = token.split('.')[2]!;
    expect(logs.text()).not.toContain(signature);
    expect(logs.text()).not.toContain(forged.split('.')[2]!);
  });
});
