import { randomBytes } from 'node:crypto';
import { brotliDecompressSync, deflateSync, gunzipSync, inflateSync } from 'node:zlib';
import { coseVerify } from 'cose-kit';
import { describe, expect } from 'vitest';
import type { AppCaller } from '@tessera/service-kit/testing';
import { harnessTest } from '../support/fixtures.js';
import { storedStatusLists } from '../support/stored-lists.js';
import { API_KEY_HEADERS, listUri, newListId, TEST_API_KEY, type Harness } from '../support/harness.js';
import { cwtIssuerKey, signStatusListCwt, type CwtOptions } from '../support/status-list-cwt.js';
import { signStatusListToken } from '../support/status-list-token.js';

const test = harnessTest({ env: { MAX_BODY_BYTES: '65536', MAX_LIST_BYTES: '1048576' } });
const auth = API_KEY_HEADERS;
const CWT = 'application/statuslist+cwt';

const allRows = ({ testDb }: Harness) => storedStatusLists(testDb.database);
const cwtFor = (id: string, options: Partial<CwtOptions> = {}) => signStatusListCwt({ sub: listUri(id), ...options });
const create = (call: AppCaller, id: string, cwt: string) =>
  call('POST', '/status-lists', { headers: auth, body: { id, cwt } });
const patch = (call: AppCaller, id: string, body: Record<string, string>, headers: Record<string, string> = auth) =>
  call('PATCH', `/status-lists/${id}`, { headers, body });
/** A GET's exact bytes (the caller's text body would not keep binary). */
const getBytes = async ({ app }: Harness, id: string, headers: Record<string, string> = {}) => {
  const response = await app.inject({ url: `/status-lists/${id}`, headers });
  return { status: response.statusCode, headers: response.headers, bytes: response.rawPayload };
};

describe('POST /status-lists with cwt', () => {
  test('stores a CWT list and answers 201 with Location and its metadata', async ({ harness: { call } }) => {
    const id = newListId();
    const { base64url } = cwtFor(id, {
      iat: 1_700_000_000,
      exp: 1_900_000_000,
      ttl: 300,
      bits: 2,
      statuses: [1, 2, 3],
    });
    const response = await create(call, id, base64url);
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

  test('serves the CWT bytes as application/statuslist+cwt, byte for byte, and they verify with cose-kit', async ({
    harness,
  }) => {
    const id = newListId();
    const { bytes, base64url } = cwtFor(id, { ttl: 120, exp: Math.floor(Date.now() / 1000) + 3600 });
    expect((await create(harness.call, id, `  ${base64url}\n`)).status).toBe(201);
    const response = await getBytes(harness, id);
    expect(response.status).toBe(200);
    expect(Buffer.compare(response.bytes, bytes)).toBe(0);
    expect(response.headers['content-type']).toBe(CWT);
    expect(response.headers['content-length']).toBe(String(bytes.length));
    expect(response.headers.etag).toMatch(/^"[A-Za-z0-9_-]+"$/);
    expect(response.headers['cache-control']).toBe('public, max-age=120');
    expect(response.headers['last-modified']).toMatch(/GMT$/);
    expect(response.headers['access-control-allow-origin']).toBe('*');
    expect(response.headers.vary).toBe('Accept, Accept-Encoding');
    expect((await coseVerify(response.bytes, cwtIssuerKey.publicKey)).isValid).toBe(true);
    // The row keeps the bytes, and no JWT.
    const row = (await allRows(harness)).find((r) => r.id === id)!;
    expect(row.jwt).toBeNull();
    expect(Buffer.compare(row.cwt!, bytes)).toBe(0);
  });

  test('answers 400 INVALID_STATUS_LIST_CWT naming each failed rule, and stores nothing', async ({ harness }) => {
    const before = await allRows(harness);
    const id = newListId();
    const { base64url } = cwtFor(id, { protectedHeader: new Map([[16, 'application/cwt']]), bits: 3 as never });
    const response = await create(harness.call, id, base64url);
    expect(response.status).toBe(400);
    expect(response.body).toMatchObject({ statusCode: 400, error: 'Bad Request', code: 'INVALID_STATUS_LIST_CWT' });
    expect(response.body.message).toContain('The status list CWT is invalid');
    expect(response.body.details.map((d: { path: string }) => d.path).sort()).toEqual([
      '/payload/65533/bits',
      '/protected/16',
    ]);
    for (const cwt of ['not base64!', 'AQ', cwtFor(id).bytes.toString('hex'), cwtFor(newListId()).base64url]) {
      const refused = await create(harness.call, id, cwt);
      expect(refused.status, cwt).toBe(400);
      expect(refused.body.code, cwt).toBe('INVALID_STATUS_LIST_CWT');
    }
    expect(await allRows(harness)).toEqual(before);
  });

  test('refuses a compression bomb with 400', async ({ harness: { call } }) => {
    const id = newListId();
    const lst = deflateSync(Buffer.alloc(8 * 1024 * 1024), { level: 9 });
    const response = await create(call, id, cwtFor(id, { lst }).base64url);
    expect(response.status).toBe(400);
    expect(response.body.details[0]).toEqual({
      path: '/payload/65533/lst',
      message: expect.stringContaining('more than 1048576 bytes'),
    });
  });

  test('answers 400 VALIDATION_FAILED for neither or both of jwt and cwt, and other bad bodies', async ({
    harness: { call },
  }) => {
    const id = newListId();
    const cwt = cwtFor(id).base64url;
    const jwt = await signStatusListToken({ sub: listUri(id) });
    const neither = await call('POST', '/status-lists', { headers: auth, body: { id } });
    expect(neither.status).toBe(400);
    expect(neither.body).toMatchObject({ code: 'VALIDATION_FAILED', details: [{ path: '/jwt' }] });
    expect(neither.body.message).toContain('send jwt');
    const both = await call('POST', '/status-lists', { headers: auth, body: { id, jwt, cwt } });
    expect(both.status).toBe(400);
    expect(both.body).toMatchObject({ code: 'VALIDATION_FAILED', details: [{ path: '/cwt' }] });
    expect(both.body.message).toContain('not both');
    for (const body of [
      { id, cwt: '' },
      { id, cwt: { bytes: 1 } },
      { id: 'not-a-uuid', cwt },
      { id, cwt, extra: 1 },
    ]) {
      const response = await call('POST', '/status-lists', { headers: auth, body });
      expect(response.status, JSON.stringify(body)).toBe(400);
      expect(response.body.code).toBe('VALIDATION_FAILED');
    }
    expect((await call('GET', `/status-lists/${id}`)).status).toBe(404);
  });

  test('answers 401 without or with a wrong API key, before looking at the body', async ({ harness }) => {
    const before = await allRows(harness);
    const id = newListId();
    const cwt = cwtFor(id).base64url;
    for (const headers of [{}, { 'x-api-key': `${TEST_API_KEY}x` }] as Array<Record<string, string>>) {
      const response = await harness.call('POST', '/status-lists', { headers, body: { id, cwt } });
      expect(response.status).toBe(401);
      expect(response.body.code).toBe('UNAUTHORIZED');
    }
    expect((await harness.call('POST', '/status-lists', { body: { cwt: 5 } })).status).toBe(401);
    expect(await allRows(harness)).toEqual(before);
  });

  test('answers 409 STATUS_LIST_EXISTS for an id taken by a list of either form, keeping the first', async ({
    harness,
  }) => {
    const id = newListId();
    const first = cwtFor(id, { iat: 1 });
    expect((await create(harness.call, id, first.base64url)).status).toBe(201);
    const again = await create(harness.call, id, cwtFor(id, { iat: 2 }).base64url);
    expect(again.status).toBe(409);
    expect(again.body.code).toBe('STATUS_LIST_EXISTS');
    const asJwt = await harness.call('POST', '/status-lists', {
      headers: auth,
      body: { id, jwt: await signStatusListToken({ sub: listUri(id) }) },
    });
    expect(asJwt.status).toBe(409);
    expect(Buffer.compare((await getBytes(harness, id)).bytes, first.bytes)).toBe(0);

    // A JWT list's id is taken for a CWT list too.
    const jwtId = newListId();
    const jwt = await signStatusListToken({ sub: listUri(jwtId) });
    await harness.call('POST', '/status-lists', { headers: auth, body: { id: jwtId, jwt } });
    expect((await create(harness.call, jwtId, cwtFor(jwtId).base64url)).status).toBe(409);
    expect((await harness.call('GET', `/status-lists/${jwtId}`)).raw).toBe(jwt);
  });

  test('answers 413 above the body limit', async ({ harness: { call } }) => {
    const id = newListId();
    const response = await call('POST', '/status-lists', {
      headers: auth,
      body: { id, cwt: 'A'.repeat(70_000) },
    });
    expect(response.status).toBe(413);
    expect(response.body.code).toBe('BODY_TOO_LARGE');
  });
});

describe('PATCH /status-lists/:list_id of a CWT list', () => {
  test('replaces the list with a newer CWT and serves it at once', async ({ harness }) => {
    const id = newListId();
    await create(harness.call, id, cwtFor(id, { iat: 1_700_000_000 }).base64url);
    const next = cwtFor(id, { iat: 1_700_000_500, statuses: [1, 1, 1] });
    const response = await patch(harness.call, id, { cwt: next.base64url });
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ id, iat: 1_700_000_500, bits: 1, sub: listUri(id) });
    expect(Buffer.compare((await getBytes(harness, id)).bytes, next.bytes)).toBe(0);
    // A re-send with the same iat is accepted.
    expect((await patch(harness.call, id, { cwt: next.base64url })).status).toBe(200);
  });

  test('answers 400 FORMAT_MISMATCH for a JWT to a CWT list and a CWT to a JWT list, and changes nothing', async ({
    harness,
  }) => {
    const cwtId = newListId();
    const stored = cwtFor(cwtId, { iat: 1 });
    await create(harness.call, cwtId, stored.base64url);
    const jwtId = newListId();
    const jwt = await signStatusListToken({ sub: listUri(jwtId), iat: 1 });
    await harness.call('POST', '/status-lists', { headers: auth, body: { id: jwtId, jwt } });
    const before = await allRows(harness);

    const jwtToCwt = await patch(harness.call, cwtId, {
      jwt: await signStatusListToken({ sub: listUri(cwtId), iat: 5 }),
    });
    expect(jwtToCwt.status).toBe(400);
    expect(jwtToCwt.body).toMatchObject({ code: 'FORMAT_MISMATCH', details: [{ path: '/jwt' }] });
    expect(jwtToCwt.body.message).toContain('application/statuslist+cwt');

    const cwtToJwt = await patch(harness.call, jwtId, { cwt: cwtFor(jwtId, { iat: 5 }).base64url });
    expect(cwtToJwt.status).toBe(400);
    expect(cwtToJwt.body).toMatchObject({ code: 'FORMAT_MISMATCH', details: [{ path: '/cwt' }] });

    expect(await allRows(harness)).toEqual(before);
    expect(Buffer.compare((await getBytes(harness, cwtId)).bytes, stored.bytes)).toBe(0);
    expect((await harness.call('GET', `/status-lists/${jwtId}`)).raw).toBe(jwt);
  });

  test('answers 409 BITS_MISMATCH, SUBJECT_MISMATCH and STALE_UPDATE as for JWT lists, and changes nothing', async ({
    harness,
  }) => {
    const id = newListId();
    await create(harness.call, id, cwtFor(id, { iat: 1_700_000_000, bits: 1 }).base64url);
    const before = await allRows(harness);
    const conflicts: Array<[Partial<CwtOptions>, string]> = [
      [{ iat: 1_700_000_100, bits: 2 }, 'BITS_MISMATCH'],
      [{ iat: 1_700_000_100, sub: `https://other.example/status-lists/${id}` }, 'SUBJECT_MISMATCH'],
      [{ iat: 1_699_999_999 }, 'STALE_UPDATE'],
    ];
    for (const [options, code] of conflicts) {
      const response = await patch(harness.call, id, { cwt: cwtFor(id, options).base64url });
      expect(response.status, code).toBe(409);
      expect(response.body.code).toBe(code);
    }
    expect(await allRows(harness)).toEqual(before);
  });

  test('answers 401 first, 404 for an unknown or malformed id, 400 for a bad token or body', async ({ harness }) => {
    const id = newListId();
    await create(harness.call, id, cwtFor(id).base64url);
    const before = await allRows(harness);
    expect((await patch(harness.call, id, { cwt: cwtFor(id).base64url }, {})).status).toBe(401);
    const unknown = newListId();
    expect((await patch(harness.call, unknown, { cwt: cwtFor(unknown).base64url })).status).toBe(404);
    expect((await patch(harness.call, 'not-a-uuid', { cwt: 'x' })).status).toBe(404);
    const bad = await patch(harness.call, id, { cwt: cwtFor(id, { signature: new Uint8Array() }).base64url });
    expect(bad.status).toBe(400);
    expect(bad.body).toMatchObject({ code: 'INVALID_STATUS_LIST_CWT', details: [{ path: '/signature' }] });
    expect((await patch(harness.call, id, {})).body.code).toBe('VALIDATION_FAILED');
    expect((await patch(harness.call, id, { cwt: 'x', jwt: 'y' })).body.code).toBe('VALIDATION_FAILED');
    expect(await allRows(harness)).toEqual(before);
  });
});

describe('GET /status-lists/:list_id of a CWT list', () => {
  /** A CWT list large enough to be compressed. */
  const storeLarge = async (call: AppCaller) => {
    const id = newListId();
    const token = cwtFor(id, {
      ttl: 300,
      statuses: Array.from(randomBytes(40000), (byte) => byte & 1),
    });
    expect(token.bytes.length).toBeGreaterThan(2048);
    expect((await create(call, id, token.base64url)).status).toBe(201);
    return { id, ...token };
  };

  test('negotiates the media type: 406 when Accept excludes statuslist+cwt, the JWT type included', async ({
    harness,
  }) => {
    const id = newListId();
    await create(harness.call, id, cwtFor(id).base64url);
    for (const accept of [CWT, '*/*', 'application/*', 'application/statuslist+jwt, application/statuslist+cwt']) {
      expect((await harness.call('GET', `/status-lists/${id}`, { headers: { accept } })).status, accept).toBe(200);
    }
    for (const accept of ['application/statuslist+jwt', 'application/json', `${CWT};q=0`, 'text/html']) {
      const response = await harness.call('GET', `/status-lists/${id}`, { headers: { accept } });
      expect(response.status, accept).toBe(406);
      expect(response.body).toMatchObject({ code: 'NOT_ACCEPTABLE', message: expect.stringContaining(CWT) });
      expect(response.headers['access-control-allow-origin']).toBe('*');
    }
    // And a JWT list is not served to a client that wants only CWTs.
    const jwtId = newListId();
    await harness.call('POST', '/status-lists', {
      headers: auth,
      body: { id: jwtId, jwt: await signStatusListToken({ sub: listUri(jwtId) }) },
    });
    expect((await harness.call('GET', `/status-lists/${jwtId}`, { headers: { accept: CWT } })).status).toBe(406);
  });

  test('answers 304 for a matching If-None-Match, with the caching headers and no body', async ({ harness }) => {
    const { id } = await storeLarge(harness.call);
    const { etag } = (await getBytes(harness, id)).headers;
    for (const validator of [etag as string, `W/${etag}`, '*']) {
      const response = await getBytes(harness, id, { 'if-none-match': validator });
      expect(response.status).toBe(304);
      expect(response.bytes).toHaveLength(0);
      expect(response.headers.etag).toBe(etag);
      expect(response.headers['cache-control']).toBe('public, max-age=300');
    }
    expect((await getBytes(harness, id, { 'if-none-match': '"other"' })).status).toBe(200);
  });

  test('compresses with br, gzip or deflate when it makes the body smaller, else serves the bytes as they are', async ({
    harness,
  }) => {
    // A list deflated without compression (stored blocks, still a zlib stream): the CWT compresses well.
    const compressibleId = newListId();
    const compressible = cwtFor(compressibleId, { lst: deflateSync(Buffer.alloc(20_000), { level: 0 }) });
    expect((await create(harness.call, compressibleId, compressible.base64url)).status).toBe(201);
    for (const [encoding, decode] of [
      ['gzip', gunzipSync],
      ['br', brotliDecompressSync],
      ['deflate', inflateSync],
    ] as const) {
      const response = await getBytes(harness, compressibleId, { 'accept-encoding': encoding });
      expect(response.headers['content-encoding']).toBe(encoding);
      expect(response.headers['content-length']).toBe(String(response.bytes.length));
      expect(response.bytes.length).toBeLessThan(compressible.bytes.length / 10);
      expect(Buffer.compare(decode(response.bytes), compressible.bytes)).toBe(0);
    }
    // A list of random statuses deflated at the best level: no coding makes it smaller.
    const { id, bytes } = await storeLarge(harness.call);
    const response = await getBytes(harness, id, { 'accept-encoding': 'gzip, br' });
    expect(response.headers['content-encoding']).toBeUndefined();
    expect(Buffer.compare(response.bytes, bytes)).toBe(0);
  });

  test('answers HEAD with the headers of the GET and no body', async ({ harness: { app, call } }) => {
    const id = newListId();
    const { bytes } = cwtFor(id);
    await create(call, id, bytes.toString('base64url'));
    const response = await app.inject({ method: 'HEAD', url: `/status-lists/${id}` });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe(CWT);
    expect(response.headers['content-length']).toBe(String(bytes.length));
    expect(response.rawPayload).toHaveLength(0);
  });
});

describe('JWT lists keep their contract', () => {
  test('a JWT list is served as before beside CWT lists: the same bytes, type, validators and record', async ({
    harness: { call },
  }) => {
    const id = newListId();
    const jwt = await signStatusListToken({ sub: listUri(id), ttl: 60 });
    const created = await call('POST', '/status-lists', { headers: auth, body: { id, jwt } });
    expect(Object.keys(created.body).sort()).toEqual(
      ['bits', 'createdAt', 'id', 'iat', 'exp', 'sub', 'ttl', 'updatedAt'].sort(),
    );
    const response = await call('GET', `/status-lists/${id}`);
    expect(response.raw).toBe(jwt);
    expect(response.headers['content-type']).toBe('application/statuslist+jwt');
    expect(response.headers['content-length']).toBe(String(jwt.length));
  });
});
