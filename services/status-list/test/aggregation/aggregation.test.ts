import { gunzipSync } from 'node:zlib';
import { describe, expect } from 'vitest';
import { missingServer } from '@tessera/service-kit/testing';
import { harnessTest, replicasTest } from '../support/fixtures.js';
import { seedStatusLists, storedListUris } from '../support/stored-lists.js';
import { API_KEY_HEADERS, BASE, listUri, newListId } from '../support/harness.js';
import { signStatusListCwt } from '../support/status-list-cwt.js';
import { signStatusListToken } from '../support/status-list-token.js';

const auth = API_KEY_HEADERS;
const AGGREGATION = '/status-lists/aggregation';
const LISTS = 20_000;

const test = harnessTest();

describe('GET /status-lists/aggregation', () => {
  test('answers an empty aggregation before any list exists', async ({ harness: { call } }) => {
    const response = await call('GET', AGGREGATION);
    expect(response.status).toBe(200);
    expect(response.headers['content-type']).toBe('application/json');
    expect(response.body).toEqual({ status_lists: [] });
  });

  test(`lists the URI of every list, ${LISTS} of them and both forms, with ETag, 304, encodings and CORS`, async ({
    harness,
  }) => {
    const { app, call } = harness;
    await seedStatusLists(harness.testDb.database, LISTS, BASE);
    const jwtId = newListId();
    await call('POST', '/status-lists', {
      headers: auth,
      body: { id: jwtId, jwt: await signStatusListToken({ sub: listUri(jwtId) }) },
    });
    const cwtId = newListId();
    const aggregationUri = `${BASE}${AGGREGATION}`;
    await call('POST', '/status-lists', {
      headers: auth,
      body: { id: cwtId, cwt: signStatusListCwt({ sub: listUri(cwtId), aggregationUri }).base64url },
    });

    const response = await call('GET', AGGREGATION);
    expect(response.status).toBe(200);
    expect(response.body.status_lists).toHaveLength(LISTS + 2);
    expect(response.body.status_lists).toEqual(await storedListUris(harness.testDb.database));
    expect(response.body.status_lists.slice(-2)).toEqual([listUri(jwtId), listUri(cwtId)]);
    expect(response.headers['content-type']).toBe('application/json');
    expect(response.headers['content-length']).toBe(String(Buffer.byteLength(response.raw)));
    expect(response.headers.etag).toMatch(/^"[A-Za-z0-9_-]+"$/);
    expect(response.headers['cache-control']).toBe('public, max-age=60');
    expect(response.headers.vary).toBe('Accept, Accept-Encoding');
    expect(response.headers['access-control-allow-origin']).toBe('*');

    const etag = response.headers.etag as string;
    const revalidated = await call('GET', AGGREGATION, { headers: { 'if-none-match': etag } });
    expect(revalidated.status).toBe(304);
    expect(revalidated.raw).toBe('');
    expect(revalidated.headers.etag).toBe(etag);

    const gzipped = await app.inject({ url: AGGREGATION, headers: { 'accept-encoding': 'gzip' } });
    expect(gzipped.headers['content-encoding']).toBe('gzip');
    expect(gzipped.rawPayload.length).toBeLessThan(Buffer.byteLength(response.raw) / 3);
    expect(gunzipSync(gzipped.rawPayload).toString()).toBe(response.raw);

    // A list created through this replica is in the next answer, under a new validator.
    const newId = newListId();
    await call('POST', '/status-lists', {
      headers: auth,
      body: { id: newId, jwt: await signStatusListToken({ sub: listUri(newId) }) },
    });
    const after = await call('GET', AGGREGATION, { headers: { 'if-none-match': etag } });
    expect(after.status).toBe(200);
    expect(after.body.status_lists).toHaveLength(LISTS + 3);
    expect(after.body.status_lists.at(-1)).toBe(listUri(newId));
    expect(after.headers.etag).not.toBe(etag);
    // An update changes no URI: the aggregation and its validator stay.
    await call('PATCH', `/status-lists/${newId}`, {
      headers: auth,
      body: { jwt: await signStatusListToken({ sub: listUri(newId), iat: 1_800_000_000 }) },
    });
    expect(
      (await call('GET', AGGREGATION, { headers: { 'if-none-match': after.headers.etag as string } })).status,
    ).toBe(304);
  });

  test('negotiates application/json: 406 otherwise, without authentication', async ({ harness: { call } }) => {
    for (const accept of ['application/json', 'application/*', '*/*']) {
      expect((await call('GET', AGGREGATION, { headers: { accept } })).status, accept).toBe(200);
    }
    for (const accept of ['text/html', 'application/statuslist+jwt']) {
      const response = await call('GET', AGGREGATION, { headers: { accept } });
      expect(response.status, accept).toBe(406);
      expect(response.body).toMatchObject({
        code: 'NOT_ACCEPTABLE',
        message: expect.stringContaining('application/json'),
      });
    }
  });

  test('is no list: writes to its path are authenticated, then 404', async ({ harness: { call } }) => {
    expect((await call('PATCH', AGGREGATION, { body: { jwt: 'x' } })).status).toBe(401);
    const response = await call('PATCH', AGGREGATION, { headers: auth, body: { jwt: 'x' } });
    expect(response.status).toBe(404);
    expect(response.body.code).toBe('NOT_FOUND');
  });
});

const BOUND_MS = 300;
const replicas = replicasTest({ env: { CACHE_TTL_MS: String(BOUND_MS) } });

// Two replicas on one database: needs a PostgreSQL server, not the embedded PGlite.
describe.skipIf(missingServer('postgres', 'status list aggregation across replicas'))(
  'the aggregation across replicas',
  () => {
    replicas(
      'a replica that did not see a create lists the new list once the staleness bound has passed',
      async ({ harness: { call: callA }, replica: { call: callB } }) => {
        const before = (await callB('GET', AGGREGATION)).body.status_lists as string[];
        const id = newListId();
        const createdAt = Date.now();
        await callA('POST', '/status-lists', {
          headers: auth,
          body: { id, jwt: await signStatusListToken({ sub: listUri(id) }) },
        });
        expect((await callA('GET', AGGREGATION)).body.status_lists).toContain(listUri(id));
        const early = (await callB('GET', AGGREGATION)).body.status_lists as string[];
        if (!early.includes(listUri(id))) {
          expect(early).toEqual(before);
          expect(Date.now() - createdAt).toBeLessThan(BOUND_MS + 50);
        }
        await new Promise((resolve) => setTimeout(resolve, BOUND_MS + 20));
        expect((await callB('GET', AGGREGATION)).body.status_lists).toEqual([...before, listUri(id)]);
      },
    );
  },
);
