// The ecosystem app on a database and bus the test chooses (a private PostgreSQL
// server a fault test stops and starts), shaped as the suite's Harness so the
// standard world (`buildWorld`) can be built on it.
import { exportJWK, generateKeyPair, SignJWT } from 'jose';
import { createTokenVerifier, migrateDatabase, openDatabase, type MessageBus } from '@tessera/service-kit';
import { InProcessHub, silentLogger } from '@tessera/service-kit/testing';
import { buildApp } from '../../src/app.js';
import { loadEcosystemConfig } from '../../src/config.js';
import { MIGRATIONS_FOLDER } from '../../src/db/migrations-folder.js';
import { schema } from '../../src/db/schema.js';
import { AUDIENCE, ISSUER, type Harness, type TokenSpec } from '../support/harness.js';

export async function startEcosystemOn(options: { databaseUrl: string; bus: MessageBus }): Promise<Harness> {
  const { privateKey, publicKey } = await generateKeyPair('ES256');
  const jwks = { keys: [{ ...(await exportJWK(publicKey)), kid: 'test-key', alg: 'ES256', use: 'sig' }] };
  const database = await openDatabase({ schema, url: options.databaseUrl, connectTimeoutSeconds: 2 });
  await migrateDatabase(database, { service: 'ecosystem', migrationsFolder: MIGRATIONS_FOLDER, url: options.databaseUrl });
  const config = loadEcosystemConfig({ NODE_ENV: 'test', OIDC_ISSUER: ISSUER, OIDC_AUDIENCE: AUDIENCE, OIDC_JWKS_FILE: '/unused/jwks.json' });
  const app = await buildApp({ config, database, bus: options.bus, verifyToken: createTokenVerifier({ issuer: ISSUER, audience: AUDIENCE, jwks }), logger: silentLogger() });
  const sign = (spec: TokenSpec) =>
    new SignJWT({
      ...(spec.email ? { email: spec.email } : {}),
      realm_access: { roles: spec.platformAdmin ? ['platform_admin'] : [] },
      resource_access: Object.fromEntries(Object.entries(spec.orgs ?? {}).map(([org, roles]) => [org, { roles }])),
    })
      .setProtectedHeader({ alg: 'ES256', kid: 'test-key', typ: 'JWT' })
      .setIssuer(ISSUER)
      .setAudience(AUDIENCE)
      .setSubject(spec.sub)
      .setIssuedAt()
      .setExpirationTime('10m')
      .sign(privateKey);
  const call: Harness['call'] = async (method, url, callOptions = {}) => {
    const response = await app.inject({
      method,
      url,
      headers: { ...(callOptions.token ? { authorization: `Bearer ${callOptions.token}` } : {}), ...callOptions.headers },
      ...(callOptions.body !== undefined ? { payload: callOptions.body as object } : {}),
    });
    let body: unknown;
    try {
      body = response.json();
    } catch {
      body = undefined;
    }
    return { status: response.statusCode, body, headers: response.headers, raw: response.body };
  };
  return {
    app,
    testDb: { database, url: options.databaseUrl, openAnother: () => Promise.reject(new Error('not here')), drop: () => database.close() },
    bus: options.bus,
    hub: new InProcessHub(),
    sign,
    call,
    close: async () => {
      await app.close();
      await options.bus.close();
      await database.close();
    },
  };
}

export { waitFor } from '@tessera/service-kit/testing';
