import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { App } from '@tessera/service-kit';
import { missingServer, type TestDatabase } from '@tessera/service-kit/testing';
import { statusLists, type StatusListDbSchema } from '../src/db/schema.js';
import { listChangesSince, replaceStatusListToken } from '../src/db/status-lists.js';
import { buildTestApp, createTestStatusListDb, listUri, newListId, TEST_API_KEY } from './support/test-app.js';
import { signStatusListToken } from './support/status-list-token.js';

const auth = { 'x-api-key': TEST_API_KEY };

// Several connections to one database: needs a PostgreSQL server, not the embedded PGlite.
describe.skipIf(missingServer('postgres', 'status list replicas and concurrency'))('status list replicas and concurrency', () => {
  let testDb: TestDatabase<StatusListDbSchema>;
  let replicaA: App;
  let replicaB: App;
  const BOUND_MS = 300;

  beforeAll(async () => {
    testDb = await createTestStatusListDb();
    replicaA = await buildTestApp(testDb.database, { CACHE_TTL_MS: String(BOUND_MS) });
    replicaB = await buildTestApp(await testDb.openAnother(), { CACHE_TTL_MS: String(BOUND_MS) });
  });
  afterAll(async () => {
    await replicaA.close();
    await replicaB.close();
    await testDb.drop();
  });

  it('a replica that did not see a write serves the new list once the bound has passed; the writer at once', async () => {
    const id = newListId();
    const v1 = await signStatusListToken({ sub: listUri(id), iat: 100 });
    const v2 = await signStatusListToken({ sub: listUri(id), iat: 200, statuses: [1, 1, 1] });
    expect((await replicaA.inject({ method: 'POST', url: '/status-lists', headers: auth, payload: { id, jwt: v1 } })).statusCode).toBe(201);
    expect((await replicaB.inject({ url: `/status-lists/${id}` })).body).toBe(v1);

    const patchedAt = Date.now();
    expect((await replicaA.inject({ method: 'PATCH', url: `/status-lists/${id}`, headers: auth, payload: { jwt: v2 } })).statusCode).toBe(200);
    expect((await replicaA.inject({ url: `/status-lists/${id}` })).body).toBe(v2);

    // B may serve v1 only while its entry is younger than the bound.
    const early = await replicaB.inject({ url: `/status-lists/${id}` });
    if (early.body === v1) expect(Date.now() - patchedAt).toBeLessThan(BOUND_MS + 50);
    await new Promise((resolve) => setTimeout(resolve, BOUND_MS + 20));
    expect((await replicaB.inject({ url: `/status-lists/${id}` })).body).toBe(v2);
  });

  it('a replica that remembered a list as missing finds it once the bound has passed', async () => {
    const id = newListId();
    expect((await replicaB.inject({ url: `/status-lists/${id}` })).statusCode).toBe(404);
    const jwt = await signStatusListToken({ sub: listUri(id) });
    await replicaA.inject({ method: 'POST', url: '/status-lists', headers: auth, payload: { id, jwt } });
    await new Promise((resolve) => setTimeout(resolve, BOUND_MS + 20));
    expect((await replicaB.inject({ url: `/status-lists/${id}` })).body).toBe(jwt);
  });

  it('concurrent PATCHes through both replicas lose no update: the newest token wins, older ones are STALE_UPDATE', async () => {
    const id = newListId();
    await replicaA.inject({ method: 'POST', url: '/status-lists', headers: auth, payload: { id, jwt: await signStatusListToken({ sub: listUri(id), iat: 1 }) } });
    const tokens = await Promise.all(Array.from({ length: 30 }, (_, i) => signStatusListToken({ sub: listUri(id), iat: 10 + i, statuses: [i % 2] })));
    const shuffled = tokens.map((jwt, i) => ({ jwt, i })).sort((a, b) => ((a.i * 7919) % 31) - ((b.i * 7919) % 31));
    const responses = await Promise.all(
      shuffled.map(({ jwt }, n) => (n % 2 ? replicaA : replicaB).inject({ method: 'PATCH', url: `/status-lists/${id}`, headers: auth, payload: { jwt } })),
    );
    for (const response of responses) {
      expect([200, 409]).toContain(response.statusCode);
      if (response.statusCode === 409) expect(response.json().code).toBe('STALE_UPDATE');
    }
    const newest = tokens[tokens.length - 1]!;
    const rows = await testDb.database.db.select().from(statusLists);
    const row = rows.find((r) => r.id === id)!;
    expect(row.jwt).toBe(newest);
    expect(row.iat).toBe(39);
  });

  it('a write that commits after a poll started is reported by the next poll, however late it commits', async () => {
    const id = newListId();
    await replicaA.inject({ method: 'POST', url: '/status-lists', headers: auth, payload: { id, jwt: await signStatusListToken({ sub: listUri(id), iat: 1 }) } });
    const other = await testDb.openAnother();
    const first = await listChangesSince(testDb.database.db, undefined);
    let commit: () => void = () => {};
    const slowWrite = other.db.transaction(async (tx) => {
      await replaceStatusListToken(tx, id, { jwt: 'a.b.c', iat: 2, etag: '"late"' });
      await new Promise<void>((resolve) => (commit = resolve));
    });
    await new Promise((resolve) => setTimeout(resolve, 50));
    const during = await listChangesSince(testDb.database.db, first.watermark);
    expect(during.changes.map((c) => c.etag)).not.toContain('"late"');
    commit();
    await slowWrite;
    const after = await listChangesSince(testDb.database.db, during.watermark);
    expect(after.changes).toContainEqual({ id, etag: '"late"' });
    await other.close();
  });

  it('two simultaneous creates of one id: exactly one 201, the other 409, one row', async () => {
    const id = newListId();
    const jwts = await Promise.all([1, 2, 3, 4].map((iat) => signStatusListToken({ sub: listUri(id), iat })));
    const responses = await Promise.all(jwts.map((jwt, n) => (n % 2 ? replicaA : replicaB).inject({ method: 'POST', url: '/status-lists', headers: auth, payload: { id, jwt } })));
    expect(responses.map((r) => r.statusCode).sort()).toEqual([201, 409, 409, 409]);
    const rows = (await testDb.database.db.select().from(statusLists)).filter((r) => r.id === id);
    expect(rows).toHaveLength(1);
  });
});
