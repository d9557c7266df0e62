import { randomBytes } from 'node:crypto';
import { gunzipSync } from 'node:zlib';
import { describe, expect } from 'vitest';
import { missingServer } from '@tessera/service-kit/testing';
import { listChangesSince } from '../../src/db/status-lists.js';
import { replicasTest } from '../support/fixtures.js';
import { API_KEY_HEADERS, listUri, newListId } from '../support/harness.js';
import { startUncommittedWrite } from '../support/stored-lists.js';
import { signStatusListToken } from '../support/status-list-token.js';

const auth = API_KEY_HEADERS;
const BOUND_MS = 300;
const test = replicasTest({ env: { CACHE_TTL_MS: String(BOUND_MS) } });

// Several connections to one database: needs a PostgreSQL server, not the embedded PGlite.
describe.skipIf(missingServer('postgres', 'status list cache across replicas'))(
  'status list cache across replicas',
  () => {
    test('a replica that did not see a write serves the new list once the bound has passed; the writer at once', async ({
      harness: { call: callA },
      replica: { call: callB },
    }) => {
      const id = newListId();
      const v1 = await signStatusListToken({ sub: listUri(id), iat: 100 });
      const v2 = await signStatusListToken({ sub: listUri(id), iat: 200, statuses: [1, 1, 1] });
      expect((await callA('POST', '/status-lists', { headers: auth, body: { id, jwt: v1 } })).status).toBe(201);
      expect((await callB('GET', `/status-lists/${id}`)).raw).toBe(v1);

      const patchedAt = Date.now();
      expect((await callA('PATCH', `/status-lists/${id}`, { headers: auth, body: { jwt: v2 } })).status).toBe(200);
      expect((await callA('GET', `/status-lists/${id}`)).raw).toBe(v2);

      // B may serve v1 only while its entry is younger than the bound.
      const early = await callB('GET', `/status-lists/${id}`);
      if (early.raw === v1) expect(Date.now() - patchedAt).toBeLessThan(BOUND_MS + 50);
      await new Promise((resolve) => setTimeout(resolve, BOUND_MS + 20));
      expect((await callB('GET', `/status-lists/${id}`)).raw).toBe(v2);
    });

    test('a replica that kept headers and a gzip encoding of the old list serves the new one in every form once the bound has passed', async ({
      harness: { call: callA },
      replica: { app: appB, call: callB },
    }) => {
      const id = newListId();
      const statuses = () => Array.from(randomBytes(20000), (byte) => byte & 1);
      const v1 = await signStatusListToken({ sub: listUri(id), iat: 100, ttl: 300, statuses: statuses() });
      const v2 = await signStatusListToken({ sub: listUri(id), iat: 200, ttl: 60, statuses: statuses() });
      await callA('POST', '/status-lists', { headers: auth, body: { id, jwt: v1 } });
      const oldEtag = (await callB('GET', `/status-lists/${id}`)).headers.etag as string;
      expect(
        gunzipSync(
          (await appB.inject({ url: `/status-lists/${id}`, headers: { 'accept-encoding': 'gzip' } })).rawPayload,
        ).toString(),
      ).toBe(v1);
      expect((await callB('GET', `/status-lists/${id}`, { headers: { 'if-none-match': oldEtag } })).status).toBe(304);

      await callA('PATCH', `/status-lists/${id}`, { headers: auth, body: { jwt: v2 } });
      await new Promise((resolve) => setTimeout(resolve, BOUND_MS + 20));
      const plain = await callB('GET', `/status-lists/${id}`);
      expect(plain.raw).toBe(v2);
      expect(plain.headers['cache-control']).toBe('public, max-age=60');
      const gzipped = await appB.inject({ url: `/status-lists/${id}`, headers: { 'accept-encoding': 'gzip' } });
      expect(gunzipSync(gzipped.rawPayload).toString()).toBe(v2);
      expect(gzipped.headers.etag).toBe(plain.headers.etag);
      expect((await callB('GET', `/status-lists/${id}`, { headers: { 'if-none-match': oldEtag } })).status).toBe(200);
    });

    test('a replica that remembered a list as missing finds it once the bound has passed', async ({
      harness: { call: callA },
      replica: { call: callB },
    }) => {
      const id = newListId();
      expect((await callB('GET', `/status-lists/${id}`)).status).toBe(404);
      const jwt = await signStatusListToken({ sub: listUri(id) });
      await callA('POST', '/status-lists', { headers: auth, body: { id, jwt } });
      await new Promise((resolve) => setTimeout(resolve, BOUND_MS + 20));
      expect((await callB('GET', `/status-lists/${id}`)).raw).toBe(jwt);
    });

    test('a write that commits after a poll started is reported by the next poll, however late it commits', async ({
      harness: { call, testDb },
    }) => {
      const id = newListId();
      await call('POST', '/status-lists', {
        headers: auth,
        body: { id, jwt: await signStatusListToken({ sub: listUri(id), iat: 1 }) },
      });
      const first = await listChangesSince(testDb.database.db, undefined);
      // The write has run (it holds its transaction id) but not committed.
      const slowWrite = await startUncommittedWrite(testDb, id, { jwt: 'a.b.c', iat: 2, etag: '"late"' });
      const during = await listChangesSince(testDb.database.db, first.watermark);
      expect(during.changes.map((c) => c.etag)).not.toContain('"late"');
      await slowWrite.commit();
      const after = await listChangesSince(testDb.database.db, during.watermark);
      expect(after.changes).toContainEqual({ id, etag: '"late"' });
    });
  },
);
