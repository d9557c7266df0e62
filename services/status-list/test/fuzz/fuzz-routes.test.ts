import { describe, expect } from 'vitest';
import { FUZZ_SEED, fuzzAllRoutes, fuzzRunsPerRoute, snapshotSchema } from '@tessera/service-kit/testing';
import { harnessTest } from '../support/fixtures.js';
import { API_KEY_HEADERS, listUri, newListId } from '../support/harness.js';
import { signStatusListToken } from '../support/status-list-token.js';

/** One list that exists, so generated ids include a known one. */
const test = harnessTest().extend('existing', { scope: 'file' }, async ({ harness }) => {
  const existing = newListId();
  const jwt = await signStatusListToken({ sub: listUri(existing), iat: 1_700_000_000 });
  await harness.call('POST', '/status-lists', { headers: API_KEY_HEADERS, body: { id: existing, jwt } });
  return existing;
});

// Requests generated from each route's own schema, valid-shaped and hostile, with a
// fixed seed (FUZZ_SEED) and FUZZ_RUNS requests per route (40 by default).
describe('status list fuzzing', () => {
  test('never answers 5xx, always answers the error body and security headers, allows CORS only on reads, and changes nothing on a 4xx', async ({
    harness: { app, testDb },
    existing,
  }) => {
    const report = await fuzzAllRoutes({
      app,
      seed: FUZZ_SEED,
      runsPerRoute: fuzzRunsPerRoute(),
      authHeaders: API_KEY_HEADERS,
      knownPathValues: { list_id: [existing, existing.toUpperCase()] },
      snapshot: () => snapshotSchema(testDb.database, 'status_list'),
      // Only reads answer cross-origin (STATUS-LIST.md, Serving): the lists, their versions and the aggregation.
      corsAllowed: (route) =>
        route.method === 'GET' &&
        ['/status-lists/{list_id}', '/status-lists/{list_id}/versions', '/status-lists/aggregation'].includes(
          route.path,
        ),
    });
    expect(report.routes).toBeGreaterThanOrEqual(3);
    expect(report.problems).toEqual([]);
  }, 120000);
});
