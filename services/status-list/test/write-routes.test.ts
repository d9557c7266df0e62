import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { App } from '@tessera/service-kit';
import type { TestDatabase } from '@tessera/service-kit/testing';
import type { StatusListDbSchema } from '../src/db/schema.js';
import { statusLists } from '../src/db/schema.js';
import { buildTestApp, createTestStatusListDb, listUri, newListId, TEST_API_KEY } from './support/test-app.js';
import { rawToken, signStatusListToken } from './support/status-list-token.js';

describe('status list writes', () => {
  let testDb: TestDatabase<StatusListDbSchema>;
  let app: App;
  const auth = { 'x-api-key': TEST_API_KEY };

  beforeAll(async () => {
    testDb = await createTestStatusListDb();
    app = await buildTestApp(testDb.database, { MAX_BODY_BYTES: '65536', MAX_LIST_BYTES: '1048576' });
  });
  afterAll(async () => {
    await app.close();
    await testDb.drop();
  });

  const allRows = () => testDb.database.db.select().from(statusLists).orderBy(statusLists.id);
  const create = async (id: string, options: Parameters<typeof signStatusListToken>[0] | undefined = undefined) => {
    const jwt = await signStatusListToken(options ?? { sub: listUri(id) });
    const response = await app.inject({ method: 'POST', url: '/status-lists', headers: auth, payload: { id, jwt } });
    return { response, jwt };
  };
  const patch = (id: string, jwt: string, headers: Record<string, string> = auth) =>
    app.inject({ method: 'PATCH', url: `/status-lists/${id}`, headers, payload: { jwt } });

  describe('POST /status-lists', () => {
    it('stores the list and answers 201 with Location and its metadata', async () => {
      const id = newListId();
      const { response } = await create(id, { sub: listUri(id), iat: 1_700_000_000, exp: 1_900_000_000, ttl: 300, bits: 2, statuses: [1, 2, 3] });
      expect(response.statusCode).toBe(201);
      expect(response.headers.location).toBe(listUri(id));
      expect(response.json()).toEqual({
        id, bits: 2, sub: listUri(id), iat: 1_700_000_000, exp: 1_900_000_000, ttl: 300,
        createdAt: expect.stringMatching(/Z$/), updatedAt: expect.stringMatching(/Z$/),
      });
    });

    it('stores an uppercase id in canonical lowercase', async () => {
      const id = newListId();
      const jwt = await signStatusListToken({ sub: listUri(id) });
      const response = await app.inject({ method: 'POST', url: '/status-lists', headers: auth, payload: { id: id.toUpperCase(), jwt } });
      expect(response.statusCode).toBe(201);
      expect(response.json().id).toBe(id);
      expect((await app.inject({ url: `/status-lists/${id.toUpperCase()}` })).body).toBe(jwt);
    });

    it('answers 401 without or with a wrong API key, and stores nothing', async () => {
      const before = await allRows();
      const id = newListId();
      const jwt = await signStatusListToken({ sub: listUri(id) });
      for (const headers of [{}, { 'x-api-key': 'wrong-key-wrong-key' }, { 'x-api-key': `${TEST_API_KEY}x` }, { 'x-api-key': '' }]) {
        const response = await app.inject({ method: 'POST', url: '/status-lists', headers, payload: { id, jwt } });
        expect(response.statusCode).toBe(401);
        expect(response.json()).toMatchObject({ statusCode: 401, error: 'Unauthorized', code: 'UNAUTHORIZED' });
      }
      expect(await allRows()).toEqual(before);
    });

    it('authenticates before validating: a bad body without a key is 401', async () => {
      const response = await app.inject({ method: 'POST', url: '/status-lists', payload: { nope: true } });
      expect(response.statusCode).toBe(401);
    });

    it('answers 400 VALIDATION_FAILED for a bad id or missing fields', async () => {
      const jwt = await signStatusListToken({ sub: listUri(newListId()) });
      for (const payload of [{ id: 'not-a-uuid', jwt }, { id: '2f0d3b9c-5e3a-1a8e-9d6b-1c2d3e4f5a6b', jwt }, { jwt }, { id: newListId() }, { id: newListId(), jwt, extra: 1 }, { id: 5, jwt }, []]) {
        const response = await app.inject({ method: 'POST', url: '/status-lists', headers: auth, payload: payload as object });
        expect(response.statusCode, JSON.stringify(payload)).toBe(400);
        expect(response.json()).toMatchObject({ code: 'VALIDATION_FAILED', details: expect.any(Array) });
      }
    });

    it('answers 400 INVALID_STATUS_LIST_JWT naming each failed rule, and stores nothing', async () => {
      const before = await allRows();
      const id = newListId();
      const jwt = rawToken({ alg: 'none', typ: 'JWT' }, { sub: listUri(id), iat: 5, status_list: { bits: 3, lst: 'eNrbuRgAAhcBXQ' } });
      const response = await app.inject({ method: 'POST', url: '/status-lists', headers: auth, payload: { id, jwt } });
      expect(response.statusCode).toBe(400);
      const body = response.json();
      expect(body.code).toBe('INVALID_STATUS_LIST_JWT');
      expect(body.details.map((d: { path: string }) => d.path).sort()).toEqual(['/header/alg', '/header/typ', '/payload/status_list/bits']);
      expect(await allRows()).toEqual(before);
    });

    it('refuses a compression bomb with 400', async () => {
      const { deflateSync } = await import('node:zlib');
      const id = newListId();
      const lst = deflateSync(Buffer.alloc(8 * 1024 * 1024), { level: 9 }).toString('base64url');
      const jwt = rawToken({ alg: 'ES256', typ: 'statuslist+jwt' }, { sub: listUri(id), iat: 1, status_list: { bits: 1, lst } });
      const response = await app.inject({ method: 'POST', url: '/status-lists', headers: auth, payload: { id, jwt } });
      expect(response.statusCode).toBe(400);
      expect(response.json().details[0]).toEqual({ path: '/payload/status_list/lst', message: expect.stringContaining('more than 1048576 bytes') });
    });

    it('answers 409 STATUS_LIST_EXISTS for a duplicate id and keeps the first list', async () => {
      const id = newListId();
      const { jwt: first } = await create(id);
      const { response } = await create(id, { sub: listUri(id), iat: 1_800_000_000 });
      expect(response.statusCode).toBe(409);
      expect(response.json()).toMatchObject({ code: 'STATUS_LIST_EXISTS' });
      expect((await app.inject({ url: `/status-lists/${id}` })).body).toBe(first);
    });

    it('answers 413 above the body limit and 415 for other content types', async () => {
      const big = await app.inject({ method: 'POST', url: '/status-lists', headers: auth, payload: { id: newListId(), jwt: 'a'.repeat(70000) } });
      expect(big.statusCode).toBe(413);
      expect(big.json()).toMatchObject({ code: 'BODY_TOO_LARGE' });
      const text = await app.inject({ method: 'POST', url: '/status-lists', headers: { ...auth, 'content-type': 'text/plain' }, payload: 'hello' });
      expect(text.statusCode).toBe(415);
      expect(text.json()).toMatchObject({ code: 'UNSUPPORTED_MEDIA_TYPE' });
    });

    it('answers 400 for malformed JSON', async () => {
      const response = await app.inject({ method: 'POST', url: '/status-lists', headers: { ...auth, 'content-type': 'application/json' }, payload: '{"id": ' });
      expect(response.statusCode).toBe(400);
      expect(response.json()).toMatchObject({ code: 'VALIDATION_FAILED', message: 'The body is not valid JSON.' });
    });
  });

  describe('PATCH /status-lists/:list_id', () => {
    it('replaces the list with a newer token and serves it at once', async () => {
      const id = newListId();
      await create(id, { sub: listUri(id), iat: 1_700_000_000 });
      const next = await signStatusListToken({ sub: listUri(id), iat: 1_700_000_500, statuses: [1, 1, 1, 1, 1, 1, 1, 1] });
      const response = await patch(id, next);
      expect(response.statusCode).toBe(200);
      expect(response.json()).toMatchObject({ id, iat: 1_700_000_500, bits: 1 });
      expect((await app.inject({ url: `/status-lists/${id}` })).body).toBe(next);
    });

    it('accepts a re-send with the same iat', async () => {
      const id = newListId();
      const { jwt } = await create(id, { sub: listUri(id), iat: 1_700_000_000 });
      expect((await patch(id, jwt)).statusCode).toBe(200);
    });

    it('answers 401 before anything else', async () => {
      const response = await app.inject({ method: 'PATCH', url: '/status-lists/not-a-uuid', payload: { nope: 1 } });
      expect(response.statusCode).toBe(401);
    });

    it('answers 404 for a malformed id before looking at the body, and for an unknown id', async () => {
      const bad = await app.inject({ method: 'PATCH', url: '/status-lists/not-a-uuid', headers: auth, payload: { nope: 1 } });
      expect(bad.statusCode).toBe(404);
      expect(bad.json()).toMatchObject({ code: 'NOT_FOUND' });
      const id = newListId();
      const unknown = await patch(id, await signStatusListToken({ sub: listUri(id) }));
      expect(unknown.statusCode).toBe(404);
    });

    it('answers 400 for an invalid body or token and changes nothing', async () => {
      const id = newListId();
      await create(id);
      const before = await allRows();
      const empty = await app.inject({ method: 'PATCH', url: `/status-lists/${id}`, headers: auth, payload: {} });
      expect(empty.json()).toMatchObject({ statusCode: 400, code: 'VALIDATION_FAILED' });
      const invalid = await patch(id, rawToken({ alg: 'ES256', typ: 'statuslist+jwt' }, { sub: listUri(id), iat: 2_000_000_000 }));
      expect(invalid.json()).toMatchObject({ statusCode: 400, code: 'INVALID_STATUS_LIST_JWT' });
      const otherId = await patch(id, await signStatusListToken({ sub: listUri(newListId()), iat: 2_000_000_000 }));
      expect(otherId.json()).toMatchObject({ statusCode: 400, code: 'INVALID_STATUS_LIST_JWT' });
      expect(await allRows()).toEqual(before);
    });

    it('answers 409 BITS_MISMATCH, SUBJECT_MISMATCH and STALE_UPDATE and changes nothing', async () => {
      const id = newListId();
      await create(id, { sub: listUri(id), iat: 1_700_000_000, bits: 1 });
      const before = await allRows();
      const bits = await patch(id, await signStatusListToken({ sub: listUri(id), iat: 1_700_000_100, bits: 2 }));
      expect(bits.statusCode).toBe(409);
      expect(bits.json()).toMatchObject({ code: 'BITS_MISMATCH' });
      const sub = await patch(id, await signStatusListToken({ sub: `https://elsewhere.example/status-lists/${id}`, iat: 1_700_000_100 }));
      expect(sub.json()).toMatchObject({ statusCode: 409, code: 'SUBJECT_MISMATCH' });
      const stale = await patch(id, await signStatusListToken({ sub: listUri(id), iat: 1_699_999_999 }));
      expect(stale.json()).toMatchObject({ statusCode: 409, code: 'STALE_UPDATE' });
      expect(await allRows()).toEqual(before);
    });
  });
});
