// The ecosystem app on a database and bus the test chooses (a private PostgreSQL
// server a fault test stops and starts), shaped as the suite's Harness so the
// standard world (`buildWorld`) can be built on it.
import { exportJWK, generateKeyPair } from 'jose';
import { createTokenVerifier, migrateDatabase, openDatabase, type MessageBus } from '@tessera/service-kit';
import { InProcessHub, silentLogger } from '@tessera/service-kit/testing';
import { buildApp } from '../../src/app.js';
import { loadEcosystemConfig } from '../../src/config.js';
import { MIGRATIONS_FOLDER } from '../../src/db/migrations-folder.js';
import { schema } from '../../src/db/schema.js';
import { openResolutionCache } from '../../src/cache/change-notifications.js';
import type { IntentResolution } from '../../src/use-cases/resolve-intent.js';
import { appCaller, AUDIENCE, ISSUER, tokenSigner, type Harness } from '../support/harness.js';

export async function startEcosystemOn(options: { databaseUrl: string; bus: MessageBus }): Promise<Harness> {
  const { privateKey, publicKey } = await generateKeyPair('ES256');
  const jwks = { keys: [{ ...(await exportJWK(publicKey)), kid: 'test-key', alg: 'ES256', use: 'sig' }] };
  const database = await openDatabase({ schema, url: options.databaseUrl, connectTimeoutSeconds: 2 });
  await migrateDatabase(database, { service: 'ecosystem', migrationsFolder: MIGRATIONS_FOLDER, url: options.databaseUrl });
  const config = loadEcosystemConfig({ NODE_ENV: 'test', OIDC_ISSUER: ISSUER, OIDC_AUDIENCE: AUDIENCE, OIDC_JWKS_FILE: '/unused/jwks.json' });
  const cache = await openResolutionCache<IntentResolution>({ database, ttlMs: config.RESOLVE_CACHE_TTL_MS });
  const app = await buildApp({ config, database, bus: options.bus, verifyToken: createTokenVerifier({ issuer: ISSUER, audience: AUDIENCE, jwks }), logger: silentLogger(), resolutions: cache.resolutions });
  const sign = tokenSigner(privateKey);
  const call = appCaller(app);
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
      await cache.close();
      await database.close();
    },
  };
}

export { waitFor } from '@tessera/service-kit/testing';
