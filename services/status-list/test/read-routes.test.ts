import { randomBytes } from 'node:crypto';
import { gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { App } from '@tessera/service-kit';
import type { TestDatabase } from '@tessera/service-kit/testing';
import type { StatusListDbSchema } from '../src/db/schema.js';
import { buildTestApp, createTestStatusListDb, listUri, newListId, TEST_API_KEY } from './support/test-app.js';
import { signStatusListToken } from './support/status-list-token.js';

describe('GET /status-lists/:list_id', () => {
  let testDb: TestDatabase<StatusListDbSchema>;
  let app: App;
  const id = newListId();
  let jwt: string;

  beforeAll(async () => {
    testDb = await createTestStatusListDb();
    app = await buildTestApp(testDb.database, { DEFAULT_MAX_AGE_SECONDS: '45' });
    jwt = await signStatusListToken({ sub: listUri(id), ttl: 120, exp: Math.floor(Date.now() / 1000) + 3600, statuses: Array.from(randomBytes(20000), (byte) => byte & 1) });
    expect(jwt.length).toBeGreaterThan(2048);
    const created = await app.inject({ method: 'POST', url: '/status-lists', headers: { 'x-api-key': TEST_API_KEY }, payload: { id, jwt: `\n${jwt} ` } });
    expect(created.statusCode).toBe(201);
  });
  afterAll(async () => {
    await app.close();
    await testDb.drop();
  });

  it('serves the stored JWT byte for byte without authentication, with caching and CORS headers', async () => {
    const response = await app.inject({ url: `/status-lists/${id}` });
    expect(response.statusCode).toBe(200);
    expect(response.body).toBe(jwt);
    expect(response.headers['content-type']).toBe('application/statuslist+jwt');
    expect(response.headers.etag).toMatch(/^"[A-Za-z0-9_-]+"$/);
    expect(response.headers['cache-control']).toBe('public, max-age=120');
    expect(response.headers['last-modified']).toMatch(/GMT$/);
    expect(response.headers['access-control-allow-origin']).toBe('*');
    expect(response.headers.vary).toContain('Accept');
    expect(response.headers['cross-origin-resource-policy']).toBe('cross-origin');
  });

  it('answers 304 for a matching If-None-Match, strong or weak', async () => {
    const { etag } = (await app.inject({ url: `/status-lists/${id}` })).headers;
    for (const validator of [etag as string, `W/${etag}`, `"x", ${etag}`]) {
      const response = await app.inject({ url: `/status-lists/${id}`, headers: { 'if-none-match': validator } });
      expect(response.statusCode).toBe(304);
      expect(response.body).toBe('');
      expect(response.headers['content-length']).toBeUndefined();
      expect(response.headers.etag).toBe(etag);
      expect(response.headers['cache-control']).toBe('public, max-age=120');
    }
    expect((await app.inject({ url: `/status-lists/${id}`, headers: { 'if-none-match': '"other"' } })).statusCode).toBe(200);
  });

  it('negotiates the media type: 406 when Accept admits neither statuslist+jwt nor */*', async () => {
    for (const accept of ['application/statuslist+jwt', '*/*', 'application/*', 'text/html, */*;q=0.1']) {
      expect((await app.inject({ url: `/status-lists/${id}`, headers: { accept } })).statusCode, accept).toBe(200);
    }
    for (const accept of ['application/json', 'text/html', 'application/statuslist+jwt;q=0']) {
      const response = await app.inject({ url: `/status-lists/${id}`, headers: { accept } });
      expect(response.statusCode, accept).toBe(406);
      expect(response.json()).toMatchObject({ code: 'NOT_ACCEPTABLE' });
    }
  });

  it('answers 404 for an unknown id and for an id that is not a UUID', async () => {
    for (const path of [newListId(), 'not-a-uuid', '2f0d3b9c-5e3a-1a8e-9d6b-1c2d3e4f5a6b', '%00']) {
      const response = await app.inject({ url: `/status-lists/${path}` });
      expect(response.statusCode, path).toBe(404);
      expect(response.json()).toMatchObject({ code: 'NOT_FOUND' });
    }
  });

  it('answers 501 HISTORY_NOT_SUPPORTED for ?time=', async () => {
    const response = await app.inject({ url: `/status-lists/${id}?time=1700000000` });
    expect(response.statusCode).toBe(501);
    expect(response.json()).toMatchObject({ statusCode: 501, code: 'HISTORY_NOT_SUPPORTED', error: 'Not Implemented' });
  });

  it('compresses with gzip when the client accepts it', async () => {
    const response = await app.inject({ url: `/status-lists/${id}`, headers: { 'accept-encoding': 'gzip' } });
    expect(response.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(response.rawPayload).toString()).toBe(jwt);
  });

  it('answers the CORS preflight', async () => {
    const response = await app.inject({ method: 'OPTIONS', url: `/status-lists/${id}`, headers: { origin: 'https://wallet.example', 'access-control-request-method': 'GET' } });
    expect(response.statusCode).toBe(204);
    expect(response.headers['access-control-allow-origin']).toBe('*');
    expect(response.headers['access-control-allow-headers']).toContain('If-None-Match');
  });

  it('uses the default max-age without ttl/exp and 0 once expired', async () => {
    const plain = newListId();
    const { SignJWT, generateKeyPair } = await import('jose');
    const { privateKey } = await generateKeyPair('ES256');
    const token = await new SignJWT({ status_list: { bits: 1, lst: 'eNrbuRgAAhcBXQ' } })
      .setProtectedHeader({ alg: 'ES256', typ: 'statuslist+jwt' })
      .setSubject(listUri(plain))
      .setIssuedAt(1_700_000_000)
      .sign(privateKey);
    await app.inject({ method: 'POST', url: '/status-lists', headers: { 'x-api-key': TEST_API_KEY }, payload: { id: plain, jwt: token } });
    expect((await app.inject({ url: `/status-lists/${plain}` })).headers['cache-control']).toBe('public, max-age=45');

    const expired = newListId();
    const expiredJwt = await signStatusListToken({ sub: listUri(expired), iat: 1_000, exp: 2_000, ttl: 300 });
    await app.inject({ method: 'POST', url: '/status-lists', headers: { 'x-api-key': TEST_API_KEY }, payload: { id: expired, jwt: expiredJwt } });
    expect((await app.inject({ url: `/status-lists/${expired}` })).headers['cache-control']).toBe('public, max-age=0');
  });

  it('documents the routes in OpenAPI', async () => {
    const doc = (await app.inject({ url: '/docs/json' })).json();
    expect(Object.keys(doc.paths)).toEqual(expect.arrayContaining(['/status-lists', '/status-lists/{list_id}']));
    expect(doc.components.securitySchemes.apiKey).toMatchObject({ type: 'apiKey', name: 'x-api-key' });
  });
});
