import { randomBytes } from 'node:crypto';
import { gunzipSync } from 'node:zlib';
import { generateKeyPair, SignJWT } from 'jose';
import { describe, expect } from 'vitest';
import { harnessTest } from '../support/fixtures.js';
import { API_KEY_HEADERS, listUri, newListId } from '../support/harness.js';
import { signStatusListToken } from '../support/status-list-token.js';

/**
 * A list stored before the file's tests: large enough to be compressed, with ttl and exp.
 * No history kept (STATUS_LIST_HISTORY_DAYS=0), so `?time=` is 501 as the draft asks of
 * servers without history; history itself is tested in test/history.
 */
const test = harnessTest({ env: { DEFAULT_MAX_AGE_SECONDS: '45', STATUS_LIST_HISTORY_DAYS: '0' } }).extend(
  'stored',
  { scope: 'file' },
  async ({ harness }) => {
    const id = newListId();
    const jwt = await signStatusListToken({
      sub: listUri(id),
      ttl: 120,
      exp: Math.floor(Date.now() / 1000) + 3600,
      statuses: Array.from(randomBytes(20000), (byte) => byte & 1),
    });
    expect(jwt.length).toBeGreaterThan(2048);
    const created = await harness.call('POST', '/status-lists', {
      headers: API_KEY_HEADERS,
      body: { id, jwt: `\n${jwt} ` },
    });
    expect(created.status).toBe(201);
    return { id, jwt };
  },
);

describe('GET /status-lists/:list_id', () => {
  test('serves the stored JWT byte for byte without authentication, with caching and CORS headers', async ({
    harness: { call },
    stored: { id, jwt },
  }) => {
    const response = await call('GET', `/status-lists/${id}`);
    expect(response.status).toBe(200);
    expect(response.raw).toBe(jwt);
    expect(response.headers['content-type']).toBe('application/statuslist+jwt');
    expect(response.headers.etag).toMatch(/^"[A-Za-z0-9_-]+"$/);
    expect(response.headers['cache-control']).toBe('public, max-age=120');
    expect(response.headers['last-modified']).toMatch(/GMT$/);
    expect(response.headers['access-control-allow-origin']).toBe('*');
    expect(response.headers.vary).toContain('Accept');
    expect(response.headers['cross-origin-resource-policy']).toBe('cross-origin');
  });

  test('answers 304 for a matching If-None-Match, strong or weak', async ({ harness: { call }, stored: { id } }) => {
    const { etag } = (await call('GET', `/status-lists/${id}`)).headers;
    for (const validator of [etag as string, `W/${etag}`, `"x", ${etag}`]) {
      const response = await call('GET', `/status-lists/${id}`, { headers: { 'if-none-match': validator } });
      expect(response.status).toBe(304);
      expect(response.raw).toBe('');
      expect(response.headers['content-length']).toBeUndefined();
      expect(response.headers.etag).toBe(etag);
      expect(response.headers['cache-control']).toBe('public, max-age=120');
    }
    expect((await call('GET', `/status-lists/${id}`, { headers: { 'if-none-match': '"other"' } })).status).toBe(200);
  });

  test('negotiates the media type: 406 when Accept admits neither statuslist+jwt nor */*', async ({
    harness: { call },
    stored: { id },
  }) => {
    for (const accept of ['application/statuslist+jwt', '*/*', 'application/*', 'text/html, */*;q=0.1']) {
      expect((await call('GET', `/status-lists/${id}`, { headers: { accept } })).status, accept).toBe(200);
    }
    for (const accept of ['application/json', 'text/html', 'application/statuslist+jwt;q=0']) {
      const response = await call('GET', `/status-lists/${id}`, { headers: { accept } });
      expect(response.status, accept).toBe(406);
      expect(response.body).toMatchObject({ code: 'NOT_ACCEPTABLE' });
    }
  });

  test('answers 404 for an unknown id and for an id that is not a UUID', async ({ harness: { call } }) => {
    for (const path of [newListId(), 'not-a-uuid', '2f0d3b9c-5e3a-1a8e-9d6b-1c2d3e4f5a6b', '%00']) {
      const response = await call('GET', `/status-lists/${path}`);
      expect(response.status, path).toBe(404);
      expect(response.body).toMatchObject({ code: 'NOT_FOUND' });
    }
  });

  test('answers 501 HISTORY_NOT_SUPPORTED for ?time=', async ({ harness: { call }, stored: { id } }) => {
    const response = await call('GET', `/status-lists/${id}?time=1700000000`);
    expect(response.status).toBe(501);
    expect(response.body).toMatchObject({ statusCode: 501, code: 'HISTORY_NOT_SUPPORTED', error: 'Not Implemented' });
  });

  test('compresses with gzip when the client accepts it', async ({ harness: { app }, stored: { id, jwt } }) => {
    // The compressed bytes themselves: `inject` gives them, the caller's text body would not.
    const response = await app.inject({ url: `/status-lists/${id}`, headers: { 'accept-encoding': 'gzip' } });
    expect(response.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(response.rawPayload).toString()).toBe(jwt);
  });

  test('answers the CORS preflight', async ({ harness: { app }, stored: { id } }) => {
    // OPTIONS is no method of the caller: a preflight is the browser's, not a client call.
    const response = await app.inject({
      method: 'OPTIONS',
      url: `/status-lists/${id}`,
      headers: { origin: 'https://wallet.example', 'access-control-request-method': 'GET' },
    });
    expect(response.statusCode).toBe(204);
    expect(response.headers['access-control-allow-origin']).toBe('*');
    expect(response.headers['access-control-allow-headers']).toContain('If-None-Match');
  });

  test('uses the default max-age without ttl/exp and 0 once expired', async ({ harness: { call } }) => {
    const plain = newListId();
    const { privateKey } = await generateKeyPair('ES256');
    const token = await new SignJWT({ status_list: { bits: 1, lst: 'eNrbuRgAAhcBXQ' } })
      .setProtectedHeader({ alg: 'ES256', typ: 'statuslist+jwt' })
      .setSubject(listUri(plain))
      .setIssuedAt(1_700_000_000)
      .sign(privateKey);
    await call('POST', '/status-lists', { headers: API_KEY_HEADERS, body: { id: plain, jwt: token } });
    expect((await call('GET', `/status-lists/${plain}`)).headers['cache-control']).toBe('public, max-age=45');

    const expired = newListId();
    const expiredJwt = await signStatusListToken({ sub: listUri(expired), iat: 1_000, exp: 2_000, ttl: 300 });
    await call('POST', '/status-lists', { headers: API_KEY_HEADERS, body: { id: expired, jwt: expiredJwt } });
    expect((await call('GET', `/status-lists/${expired}`)).headers['cache-control']).toBe('public, max-age=0');
  });
});
