import { describe, expect } from 'vitest';
import { missingServer } from '@tessera/service-kit/testing';
import { replicasTest } from '../support/fixtures.js';
import { API_KEY_HEADERS, listUri, newListId } from '../support/harness.js';
import { signStatusListToken } from '../support/status-list-token.js';
import { storedStatusLists } from '../support/stored-lists.js';

const auth = API_KEY_HEADERS;
const test = replicasTest({ env: { CACHE_TTL_MS: '300' } });

// Writes through two replicas on one database: needs a PostgreSQL server, not the embedded PGlite.
describe.skipIf(missingServer('postgres', 'status list concurrent writes'))('status list concurrent writes', () => {
  test('concurrent PATCHes through both replicas lose no update: the newest token wins, older ones are STALE_UPDATE', async ({
    harness: { call: callA, testDb },
    replica: { call: callB },
  }) => {
    const id = newListId();
    await callA('POST', '/status-lists', {
      headers: auth,
      body: { id, jwt: await signStatusListToken({ sub: listUri(id), iat: 1 }) },
    });
    const tokens = await Promise.all(
      Array.from({ length: 30 }, (_, i) => signStatusListToken({ sub: listUri(id), iat: 10 + i, statuses: [i % 2] })),
    );
    const shuffled = tokens.map((jwt, i) => ({ jwt, i })).sort((a, b) => ((a.i * 7919) % 31) - ((b.i * 7919) % 31));
    const responses = await Promise.all(
      shuffled.map(({ jwt }, n) =>
        (n % 2 ? callA : callB)('PATCH', `/status-lists/${id}`, { headers: auth, body: { jwt } }),
      ),
    );
    for (const response of responses) {
      expect([200, 409]).toContain(response.status);
      if (response.status === 409) expect(response.body.code).toBe('STALE_UPDATE');
    }
    const newest = tokens[tokens.length - 1]!;
    const rows = await storedStatusLists(testDb.database);
    const row = rows.find((r) => r.id === id)!;
    expect(row.jwt).toBe(newest);
    expect(row.iat).toBe(39);
  });

  test('two simultaneous creates of one id: exactly one 201, the other 409, one row', async ({
    harness: { call: callA, testDb },
    replica: { call: callB },
  }) => {
    const id = newListId();
    const jwts = await Promise.all([1, 2, 3, 4].map((iat) => signStatusListToken({ sub: listUri(id), iat })));
    const responses = await Promise.all(
      jwts.map((jwt, n) => (n % 2 ? callA : callB)('POST', '/status-lists', { headers: auth, body: { id, jwt } })),
    );
    expect(responses.map((r) => r.status).sort()).toEqual([201, 409, 409, 409]);
    const rows = (await storedStatusLists(testDb.database)).filter((r) => r.id === id);
    expect(rows).toHaveLength(1);
  });
});
