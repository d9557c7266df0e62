import { deflateSync } from 'node:zlib';
import { describe, expect } from 'vitest';
import type { AppCaller } from '@tessera/service-kit/testing';
import { harnessTest } from '../support/fixtures.js';
import { API_KEY_HEADERS, listUri, newListId, TEST_API_KEY, type Harness } from '../support/harness.js';
import { rawToken, signStatusListToken, type TokenOptions } from '../support/status-list-token.js';
import { storedStatusLists } from '../support/stored-lists.js';

const test = harnessTest({ env: { MAX_BODY_BYTES: '65536', MAX_LIST_BYTES: '1048576' } });
const auth = API_KEY_HEADERS;

const allRows = ({ testDb }: Harness) => storedStatusLists(testDb.database);
const create = async (call: AppCaller, id: string, options: TokenOptions | undefined = undefined) => {
  const jwt = await signStatusListToken(options ?? { sub: listUri(id) });
  const response = await call('POST', '/status-lists', { headers: auth, body: { id, jwt } });
  return { response, jwt };
};
const patch = (call: AppCaller, id: string, jwt: string, headers: Record<string, string> = auth) =>
  call('PATCH', `/status-lists/${id}`, { headers, body: { jwt } });

describe('POST /status-lists', () => {
  test('stores the list and answers 201 with Location and its metadata', async ({ harness: { call } }) => {
    const id = newListId();
    const { response } = await create(call, id, {
      sub: listUri(id),
      iat: 1_700_000_000,
      exp: 1_900_000_000,
      ttl: 300,
      bits: 2,
      statuses: [1, 2, 3],
    });
    expect(response.status).toBe(201);
    expect(response.headers.location).toBe(listUri(id));
    expect(response.body).toEqual({
      id,
      bits: 2,
      sub: listUri(id),
      iat: 1_700_000_000,
      exp: 1_900_000_000,
      ttl: 300,
      createdAt: expect.stringMatching(/Z$/),
      updatedAt: expect.stringMatching(/Z$/),
    });
  });

  test('stores an uppercase id in canonical lowercase', async ({ harness: { call } }) => {
    const id = newListId();
    const jwt = await signStatusListToken({ sub: listUri(id) });
    const response = await call('POST', '/status-lists', { headers: auth, body: { id: id.toUpperCase(), jwt } });
    expect(response.status).toBe(201);
    expect(response.body.id).toBe(id);
    expect((await call('GET', `/status-lists/${id.toUpperCase()}`)).raw).toBe(jwt);
  });

  test('answers 401 without or with a wrong API key, and stores nothing', async ({ harness }) => {
    const before = await allRows(harness);
    const id = newListId();
    const jwt = await signStatusListToken({ sub: listUri(id) });
    for (const headers of [
      {},
      { 'x-api-key': 'wrong-key-wrong-key' },
      { 'x-api-key': `${TEST_API_KEY}x` },
      { 'x-api-key': '' },
    ] as Array<Record<string, string>>) {
      const response = await harness.call('POST', '/status-lists', { headers, body: { id, jwt } });
      expect(response.status).toBe(401);
      expect(response.body).toMatchObject({ statusCode: 401, error: 'Unauthorized', code: 'UNAUTHORIZED' });
    }
    expect(await allRows(harness)).toEqual(before);
  });

  test('authenticates before validating: a bad body without a key is 401', async ({ harness: { call } }) => {
    const response = await call('POST', '/status-lists', { body: { nope: true } });
    expect(response.status).toBe(401);
  });

  test('answers 400 VALIDATION_FAILED for a bad id or missing fields', async ({ harness: { call } }) => {
    const jwt = await signStatusListToken({ sub: listUri(newListId()) });
    for (const body of [
      { id: 'not-a-uuid', jwt },
      { id: '2f0d3b9c-5e3a-1a8e-9d6b-1c2d3e4f5a6b', jwt },
      { jwt },
      { id: newListId() },
      { id: newListId(), jwt, extra: 1 },
      { id: 5, jwt },
      [],
    ]) {
      const response = await call('POST', '/status-lists', { headers: auth, body });
      expect(response.status, JSON.stringify(body)).toBe(400);
      expect(response.body).toMatchObject({ code: 'VALIDATION_FAILED', details: expect.any(Array) });
    }
  });

  test('answers 400 INVALID_STATUS_LIST_JWT naming each failed rule, and stores nothing', async ({ harness }) => {
    const before = await allRows(harness);
    const id = newListId();
    const jwt = rawToken(
      { alg: 'none', typ: 'JWT' },
      { sub: listUri(id), iat: 5, status_list: { bits: 3, lst: 'eNrbuRgAAhcBXQ' } },
    );
    const response = await harness.call('POST', '/status-lists', { headers: auth, body: { id, jwt } });
    expect(response.status).toBe(400);
    const body = response.body;
    expect(body.code).toBe('INVALID_STATUS_LIST_JWT');
    expect(body.details.map((d: { path: string }) => d.path).sort()).toEqual([
      '/header/alg',
      '/header/typ',
      '/payload/status_list/bits',
    ]);
    expect(await allRows(harness)).toEqual(before);
  });

  test('refuses a compression bomb with 400', async ({ harness: { call } }) => {
    const id = newListId();
    const lst = deflateSync(Buffer.alloc(8 * 1024 * 1024), { level: 9 }).toString('base64url');
    const jwt = rawToken(
      { alg: 'ES256', typ: 'statuslist+jwt' },
      { sub: listUri(id), iat: 1, status_list: { bits: 1, lst } },
    );
    const response = await call('POST', '/status-lists', { headers: auth, body: { id, jwt } });
    expect(response.status).toBe(400);
    expect(response.body.details[0]).toEqual({
      path: '/payload/status_list/lst',
      message: expect.stringContaining('more than 1048576 bytes'),
    });
  });

  test('answers 409 STATUS_LIST_EXISTS for a duplicate id and keeps the first list', async ({ harness: { call } }) => {
    const id = newListId();
    const { jwt: first } = await create(call, id);
    const { response } = await create(call, id, { sub: listUri(id), iat: 1_800_000_000 });
    expect(response.status).toBe(409);
    expect(response.body).toMatchObject({ code: 'STATUS_LIST_EXISTS' });
    expect((await call('GET', `/status-lists/${id}`)).raw).toBe(first);
  });

  test('answers 413 above the body limit and 415 for other content types', async ({ harness: { call } }) => {
    const big = await call('POST', '/status-lists', {
      headers: auth,
      body: { id: newListId(), jwt: 'a'.repeat(70000) },
    });
    expect(big.status).toBe(413);
    expect(big.body).toMatchObject({ code: 'BODY_TOO_LARGE' });
    const text = await call('POST', '/status-lists', {
      headers: { ...auth, 'content-type': 'text/plain' },
      body: 'hello',
    });
    expect(text.status).toBe(415);
    expect(text.body).toMatchObject({ code: 'UNSUPPORTED_MEDIA_TYPE' });
  });

  test('answers 400 for malformed JSON', async ({ harness: { call } }) => {
    const response = await call('POST', '/status-lists', {
      headers: { ...auth, 'content-type': 'application/json' },
      body: '{"id": ',
    });
    expect(response.status).toBe(400);
    expect(response.body).toMatchObject({ code: 'VALIDATION_FAILED', message: 'The body is not valid JSON.' });
  });
});

describe('PATCH /status-lists/:list_id', () => {
  test('replaces the list with a newer token and serves it at once', async ({ harness: { call } }) => {
    const id = newListId();
    await create(call, id, { sub: listUri(id), iat: 1_700_000_000 });
    const next = await signStatusListToken({
      sub: listUri(id),
      iat: 1_700_000_500,
      statuses: [1, 1, 1, 1, 1, 1, 1, 1],
    });
    const response = await patch(call, id, next);
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ id, iat: 1_700_000_500, bits: 1 });
    expect((await call('GET', `/status-lists/${id}`)).raw).toBe(next);
  });

  test('accepts a re-send with the same iat', async ({ harness: { call } }) => {
    const id = newListId();
    const { jwt } = await create(call, id, { sub: listUri(id), iat: 1_700_000_000 });
    expect((await patch(call, id, jwt)).status).toBe(200);
  });

  test('answers 401 before anything else', async ({ harness: { call } }) => {
    const response = await call('PATCH', '/status-lists/not-a-uuid', { body: { nope: 1 } });
    expect(response.status).toBe(401);
  });

  test('answers 404 for a malformed id before looking at the body, and for an unknown id', async ({
    harness: { call },
  }) => {
    const bad = await call('PATCH', '/status-lists/not-a-uuid', { headers: auth, body: { nope: 1 } });
    expect(bad.status).toBe(404);
    expect(bad.body).toMatchObject({ code: 'NOT_FOUND' });
    const id = newListId();
    const unknown = await patch(call, id, await signStatusListToken({ sub: listUri(id) }));
    expect(unknown.status).toBe(404);
  });

  test('answers 400 for an invalid body or token and changes nothing', async ({ harness }) => {
    const { call } = harness;
    const id = newListId();
    await create(call, id);
    const before = await allRows(harness);
    const empty = await call('PATCH', `/status-lists/${id}`, { headers: auth, body: {} });
    expect(empty.body).toMatchObject({ statusCode: 400, code: 'VALIDATION_FAILED' });
    const invalid = await patch(
      call,
      id,
      rawToken({ alg: 'ES256', typ: 'statuslist+jwt' }, { sub: listUri(id), iat: 2_000_000_000 }),
    );
    expect(invalid.body).toMatchObject({ statusCode: 400, code: 'INVALID_STATUS_LIST_JWT' });
    const otherId = await patch(call, id, await signStatusListToken({ sub: listUri(newListId()), iat: 2_000_000_000 }));
    expect(otherId.body).toMatchObject({ statusCode: 400, code: 'INVALID_STATUS_LIST_JWT' });
    expect(await allRows(harness)).toEqual(before);
  });

  test('answers 409 BITS_MISMATCH, SUBJECT_MISMATCH and STALE_UPDATE and changes nothing', async ({ harness }) => {
    const { call } = harness;
    const id = newListId();
    await create(call, id, { sub: listUri(id), iat: 1_700_000_000, bits: 1 });
    const before = await allRows(harness);
    const bits = await patch(call, id, await signStatusListToken({ sub: listUri(id), iat: 1_700_000_100, bits: 2 }));
    expect(bits.status).toBe(409);
    expect(bits.body).toMatchObject({ code: 'BITS_MISMATCH' });
    const sub = await patch(
      call,
      id,
      await signStatusListToken({ sub: `https://elsewhere.example/status-lists/${id}`, iat: 1_700_000_100 }),
    );
    expect(sub.body).toMatchObject({ statusCode: 409, code: 'SUBJECT_MISMATCH' });
    const stale = await patch(call, id, await signStatusListToken({ sub: listUri(id), iat: 1_699_999_999 }));
    expect(stale.body).toMatchObject({ statusCode: 409, code: 'STALE_UPDATE' });
    expect(await allRows(harness)).toEqual(before);
  });
});
