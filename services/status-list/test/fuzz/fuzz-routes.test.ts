import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { App } from '@tessera/service-kit';
import { FUZZ_SEED, fuzzAllRoutes, fuzzRunsPerRoute, snapshotSchema, type TestDatabase } from '@tessera/service-kit/testing';
import type { StatusListDbSchema } from '../../src/db/schema.js';
import { buildTestApp, createTestStatusListDb, listUri, newListId, TEST_API_KEY } from '../support/test-app.js';
import { signStatusListToken } from '../support/status-list-token.js';

// Requests generated from each route's own schema, valid-shaped and hostile, with a
// fixed seed (FUZZ_SEED) and FUZZ_RUNS requests per route (40 by default).
describe('status list fuzzing', () => {
  let testDb: TestDatabase<StatusListDbSchema>;
  let app: App;
  const existing = newListId();

  beforeAll(async () => {
    testDb = await createTestStatusListDb();
    app = await buildTestApp(testDb.database);
    const jwt = await signStatusListToken({ sub: listUri(existing), iat: 1_700_000_000 });
    await app.inject({ method: 'POST', url: '/status-lists', headers: { 'x-api-key': TEST_API_KEY }, payload: { id: existing, jwt } });
  });
  afterAll(async () => {
    await app.close();
    await testDb.drop();
  });

  it('never answers 5xx, always answers the error body and security headers, allows CORS only on reads, and changes nothing on a 4xx', async () => {
    const report = await fuzzAllRoutes({
      app,
      seed: FUZZ_SEED,
      runsPerRoute: fuzzRunsPerRoute(),
      authHeaders: { 'x-api-key': TEST_API_KEY },
      knownPathValues: { list_id: [existing, existing.toUpperCase()] },
      snapshot: () => snapshotSchema(testDb.database, 'status_list'),
      // Only reads answer cross-origin (STATUS-LIST.md, Serving).
      corsAllowed: (route) => route.method === 'GET' && route.path === '/status-lists/{list_id}',
    });
    expect(report.routes).toBeGreaterThanOrEqual(3);
    expect(report.problems).toEqual([]);
  }, 120000);
});
