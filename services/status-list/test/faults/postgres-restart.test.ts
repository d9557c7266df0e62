import { describe, expect, test as base } from 'vitest';
import { openDatabase, migrateDatabase, type App, type Database } from '@tessera/service-kit';
import {
  appCaller,
  createEmptyDatabase,
  startPrivatePostgres,
  type PrivateServer,
  waitFor,
} from '@tessera/service-kit/testing';
import { schema, type StatusListDbSchema } from '../../src/db/schema.js';
import { MIGRATIONS_FOLDER } from '../../src/db/migrations-folder.js';
import { API_KEY_HEADERS, buildTestApp, listUri, newListId } from '../support/harness.js';
import { signStatusListToken } from '../support/status-list-token.js';

const auth = API_KEY_HEADERS;
const server = await startPrivatePostgres();
if (!server)
  process.stderr.write(
    '[tessera] skipping "status list survives a PostgreSQL restart": needs local PostgreSQL binaries\n',
  );

// A PostgreSQL server of its own, so stopping it cannot disturb other test files.
const test = base.extend('outage', { scope: 'file' }, async ({}, { onCleanup }) => {
  const pg: PrivateServer = server!;
  let database: Database<StatusListDbSchema> | undefined;
  let app: App | undefined;
  onCleanup(async () => {
    await app?.close();
    await database?.close();
    await pg.destroy();
  });
  const url = await createEmptyDatabase(pg.url);
  database = await openDatabase({ schema, url, connectTimeoutSeconds: 2 });
  await migrateDatabase(database, { service: 'status-list', migrationsFolder: MIGRATIONS_FOLDER, url });
  app = await buildTestApp(database, { env: { CACHE_TTL_MS: '300' } });
  return { pg, call: appCaller(app) };
});

describe.skipIf(!server)('status list survives a PostgreSQL restart', () => {
  const acknowledged = new Map<string, string>();

  test('answers 503 fast during the outage, keeps every acknowledged write, and recovers without a restart', async ({
    outage: { pg, call },
  }) => {
    for (let i = 0; i < 20; i++) {
      const id = newListId();
      const jwt = await signStatusListToken({ sub: listUri(id), iat: 1_000 + i });
      const response = await call('POST', '/status-lists', { headers: auth, body: { id, jwt } });
      expect(response.status).toBe(201);
      acknowledged.set(id, jwt);
    }

    await pg.stop();
    const ready = await call('GET', '/health/ready');
    expect(ready.status).toBe(503);
    expect((await call('GET', '/health')).status).toBe(200);

    const id = newListId();
    const started = Date.now();
    const write = await call('POST', '/status-lists', {
      headers: auth,
      body: { id, jwt: await signStatusListToken({ sub: listUri(id) }) },
    });
    expect(write.status).toBe(503);
    expect(write.body).toMatchObject({ code: 'DEPENDENCY_UNAVAILABLE' });
    expect(Date.now() - started).toBeLessThan(8000);

    // Past the cache bound, reads need the database too: 503, never a stale or made-up answer.
    await new Promise((resolve) => setTimeout(resolve, 400));
    const [someId] = acknowledged.keys();
    expect((await call('GET', `/status-lists/${someId}`)).status).toBe(503);

    await pg.start();
    await waitFor(async () => (await call('GET', '/health/ready')).status === 200);
    for (const [listId, jwt] of acknowledged) {
      const read = await call('GET', `/status-lists/${listId}`);
      expect(read.status).toBe(200);
      expect(read.raw).toBe(jwt);
    }
    const after = newListId();
    const again = await call('POST', '/status-lists', {
      headers: auth,
      body: { id: after, jwt: await signStatusListToken({ sub: listUri(after) }) },
    });
    expect(again.status).toBe(201);
  }, 60000);
});
