import { describe, expect } from 'vitest';
import type { AppCaller } from '@tessera/service-kit/testing';
import { computeEtag } from '../../src/domain/http-caching.js';
import { harnessTest } from '../support/fixtures.js';
import { historyTest, tokenOf } from '../support/written-history.js';
import { allStoredVersions, storedVersions } from '../support/stored-lists.js';
import { API_KEY_HEADERS, listUri, newListId, type Harness } from '../support/harness.js';
import { signStatusListCwt } from '../support/status-list-cwt.js';
import { signStatusListToken } from '../support/status-list-token.js';

const auth = API_KEY_HEADERS;

const test = historyTest();

const at = (call: AppCaller, id: string, time: string | number, headers: Record<string, string> = {}) =>
  call('GET', `/status-lists/${id}?time=${time}`, { headers });

describe('GET /status-lists/:list_id?time=', () => {
  test('answers the version valid at each time, at the boundaries', async ({ harness: { call }, history }) => {
    const { id, tokens } = history;
    const [v1, v2, v3, v4] = tokens as [string, string, string, string];
    const cases: Array<[number, string | undefined]> = [
      [999, undefined], // before the first iat
      [1000, v1], // exactly at v1's iat
      [1399, v1],
      [1400, undefined], // v1's exp is not after 1400, v2 not yet issued
      [1499, undefined],
      [1500, v2], // exactly at v2's iat
      [1999, v2], // between versions
      [2000, v3], // v3 is newer than v2, both valid
      [2199, v3],
      [2200, v2], // v3 expired: v2 (ttl 10 bounds nothing) is valid until 3000
      [2499, v2],
      [2500, v4], // the current token
      [Math.floor(Date.now() / 1000), v4],
      [Number.MAX_SAFE_INTEGER, v4], // no exp: valid ever after
    ];
    for (const [time, expected] of cases) {
      const response = await at(call, id, time);
      if (expected === undefined) {
        expect(response.status, String(time)).toBe(404);
        expect(response.body, String(time)).toMatchObject({
          statusCode: 404,
          error: 'Not Found',
          code: 'NO_STATUS_AT_TIME',
        });
      } else {
        expect(response.status, String(time)).toBe(200);
        expect(response.raw, String(time)).toBe(expected);
      }
    }
  });

  test('serves a version with its own validators, caching, CORS and 304', async ({ harness: { call }, history }) => {
    const { id, tokens } = history;
    const response = await at(call, id, 1600);
    expect(response.headers['content-type']).toBe('application/statuslist+jwt');
    expect(response.headers.etag).toBe(computeEtag(tokens[1]!));
    // The version expired (exp 3000 is long past): caches must revalidate.
    expect(response.headers['cache-control']).toBe('public, max-age=0');
    expect(response.headers['last-modified']).toMatch(/GMT$/);
    expect(response.headers['access-control-allow-origin']).toBe('*');
    const revalidated = await at(call, id, 1600, { 'if-none-match': response.headers.etag as string });
    expect(revalidated.status).toBe(304);
    expect(revalidated.raw).toBe('');
    // The current list's validator does not match a version's.
    const current = await call('GET', `/status-lists/${id}`);
    expect((await at(call, id, 1600, { 'if-none-match': current.headers.etag as string })).status).toBe(200);
    expect((await at(call, id, 1600, { accept: 'application/statuslist+cwt' })).status).toBe(406);
  });

  test('answers 400 VALIDATION_FAILED for a time that is not a unix timestamp', async ({
    harness: { call },
    history: { id },
  }) => {
    for (const time of ['abc', '-1', '1.5', '', '1e9', '%201', '0x10', '99999999999999999', '1686925000Z']) {
      const response = await at(call, id, time);
      expect(response.status, time).toBe(400);
      expect(response.body, time).toMatchObject({ code: 'VALIDATION_FAILED', details: [{ path: '/time' }] });
    }
  });

  test('answers 404 NOT_FOUND for an unknown list and for an id that is not a UUID', async ({ harness: { call } }) => {
    for (const id of [newListId(), 'not-a-uuid']) {
      const response = await at(call, id, 2000);
      expect(response.status).toBe(404);
      expect(response.body.code).toBe('NOT_FOUND');
    }
  });

  test('keeps every replaced token once: a re-send of the current token adds no version', async ({
    harness,
    history: { id, tokens },
  }) => {
    const versions = ({ testDb }: Harness) => storedVersions(testDb.database, id);
    expect((await versions(harness)).map((v) => v.iat)).toEqual([1000, 1500, 2000]);
    expect(
      (await harness.call('PATCH', `/status-lists/${id}`, { headers: auth, body: { jwt: tokens[3] } })).status,
    ).toBe(200);
    expect(await versions(harness)).toHaveLength(3);
    // Refused writes keep nothing either.
    const stale = await tokenOf(id, { iat: 10, exp: 20 });
    expect((await harness.call('PATCH', `/status-lists/${id}`, { headers: auth, body: { jwt: stale } })).status).toBe(
      409,
    );
    expect(await versions(harness)).toHaveLength(3);
  });

  test('answers the history of a CWT list in its form', async ({ harness }) => {
    const id = newListId();
    const v1 = signStatusListCwt({ sub: listUri(id), iat: 1000, exp: 5000 });
    const v2 = signStatusListCwt({ sub: listUri(id), iat: 2000, exp: null, statuses: [1, 1] });
    await harness.call('POST', '/status-lists', { headers: auth, body: { id, cwt: v1.base64url } });
    await harness.call('PATCH', `/status-lists/${id}`, { headers: auth, body: { cwt: v2.base64url } });
    const old = await harness.app.inject({ url: `/status-lists/${id}?time=1500` });
    expect(old.statusCode).toBe(200);
    expect(old.headers['content-type']).toBe('application/statuslist+cwt');
    expect(Buffer.compare(old.rawPayload, v1.bytes)).toBe(0);
    const now = await harness.app.inject({ url: `/status-lists/${id}?time=2000` });
    expect(Buffer.compare(now.rawPayload, v2.bytes)).toBe(0);
    expect((await harness.call('GET', `/status-lists/${id}?time=999`)).body.code).toBe('NO_STATUS_AT_TIME');
  });
});

const withoutHistory = harnessTest({ env: { STATUS_LIST_HISTORY_DAYS: '0' } });

describe('with STATUS_LIST_HISTORY_DAYS=0', () => {
  withoutHistory('keeps no version and answers every ?time= 501 HISTORY_NOT_SUPPORTED', async ({ harness }) => {
    const id = newListId();
    const v1 = await signStatusListToken({ sub: listUri(id), iat: 1000 });
    const v2 = await signStatusListToken({ sub: listUri(id), iat: 2000 });
    await harness.call('POST', '/status-lists', { headers: auth, body: { id, jwt: v1 } });
    expect((await harness.call('PATCH', `/status-lists/${id}`, { headers: auth, body: { jwt: v2 } })).status).toBe(200);
    expect(await allStoredVersions(harness.testDb.database)).toEqual([]);
    for (const time of ['1500', '2000', 'abc']) {
      const response = await at(harness.call, id, time);
      expect(response.status, time).toBe(501);
      expect(response.body).toMatchObject({ statusCode: 501, code: 'HISTORY_NOT_SUPPORTED' });
    }
    // The list itself is served as ever.
    expect((await harness.call('GET', `/status-lists/${id}`)).raw).toBe(v2);
  });
});
