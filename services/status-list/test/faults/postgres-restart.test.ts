import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, migrateDatabase, type App, type Database } from '@tessera/service-kit';
import { createEmptyDatabase, startPrivatePostgres, type PrivateServer, waitFor } from '@tessera/service-kit/testing';
import { schema, type StatusListDbSchema } from '../../src/db/schema.js';
import { MIGRATIONS_FOLDER } from '../../src/db/migrations-folder.js';
import { buildTestApp, listUri, newListId, TEST_API_KEY } from '../support/test-app.js';
import { signStatusListToken } from '../support/status-list-token.js';

const auth = { 'x-api-key': TEST_API_KEY };
const server = await startPrivatePostgres();
if (!server) process.stderr.write('[tessera] skipping "status list survives a PostgreSQL restart": needs local PostgreSQL binaries\n');

// A PostgreSQL server of its own, so stopping it cannot disturb other test files.
describe.skipIf(!server)('status list survives a PostgreSQL restart', () => {
  let pg: PrivateServer;
  let database: Database<StatusListDbSchema>;
  let app: App;
  const acknowledged = new Map<string, string>();

  beforeAll(async () => {
    pg = server!;
    const url = await createEmptyDatabase(pg.url);
    database = await openDatabase({ schema, url, connectTimeoutSeconds: 2 });
    await migrateDatabase(database, { service: 'status-list', migrationsFolder: MIGRATIONS_FOLDER, url });
    app = await buildTestApp(database, { CACHE_TTL_MS: '300' });
  });
  afterAll(async () => {
    await app?.close();
    await database?.close();
    await pg?.destroy();
  });

  it('answers 503 fast during the outage, keeps every acknowledged write, and recovers without a restart', async () => {
    for (let i = 0; i < 20; i++) {
      const id = newListId();
      const jwt = await signStatusListToken({ sub: listUri(id), iat: 1_000 + i });
      const response = await app.inject({ method: 'POST', url: '/status-lists', headers: auth, payload: { id, jwt } });
      expect(response.statusCode).toBe(201);
      acknowledged.set(id, jwt);
    }

    await pg.stop();
    const ready = await app.inject({ url: '/health/ready' });
    expect(ready.statusCode).toBe(503);
    expect((await app.inject({ url: '/health' })).statusCode).toBe(200);

    const id = newListId();
    const started = Date.now();
    const write = await app.inject({ method: 'POST', url: '/status-lists', headers: auth, payload: { id, jwt: await signStatusListToken({ sub: listUri(id) }) } });
    expect(write.statusCode).toBe(503);
    expect(write.json()).toMatchObject({ code: 'DEPENDENCY_UNAVAILABLE' });
    expect(Date.now() - started).toBeLessThan(8000);

    // Past the cache bound, reads need the database too: 503, never a stale or made-up answer.
    await new Promise((resolve) => setTimeout(resolve, 400));
    const [someId] = acknowledged.keys();
    expect((await app.inject({ url: `/status-lists/${someId}` })).statusCode).toBe(503);

    await pg.start();
    await waitFor(async () => (await app.inject({ url: '/health/ready' })).statusCode === 200);
    for (const [listId, jwt] of acknowledged) {
      const read = await app.inject({ url: `/status-lists/${listId}` });
      expect(read.statusCode).toBe(200);
      expect(read.body).toBe(jwt);
    }
    const after = newListId();
    const again = await app.inject({ method: 'POST', url: '/status-lists', headers: auth, payload: { id: after, jwt: await signStatusListToken({ sub: listUri(after) }) } });
    expect(again.statusCode).toBe(201);
  }, 60000);
});

