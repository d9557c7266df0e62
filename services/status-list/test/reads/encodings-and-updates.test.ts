import { randomBytes } from 'node:crypto';
import { brotliDecompressSync, gunzipSync, inflateSync } from 'node:zlib';
import { describe, expect } from 'vitest';
import { harnessTest } from '../support/fixtures.js';
import { API_KEY_HEADERS, listUri, newListId } from '../support/harness.js';
import { signStatusListToken } from '../support/status-list-token.js';

const test = harnessTest();
const largeStatuses = () => Array.from(randomBytes(20000), (byte) => byte & 1);
const decoders = { br: brotliDecompressSync, gzip: gunzipSync, deflate: inflateSync } as const;

describe('GET /status-lists/:list_id: encodings and updates', () => {
  test('serves br, gzip and deflate with their own Content-Length, and the token as it is without Accept-Encoding', async ({
    harness: { app, call },
  }) => {
    const id = newListId();
    const jwt = await signStatusListToken({ sub: listUri(id), ttl: 60, statuses: largeStatuses() });
    expect((await call('POST', '/status-lists', { headers: API_KEY_HEADERS, body: { id, jwt } })).status).toBe(201);

    const plain = await app.inject({ url: `/status-lists/${id}` });
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.headers['content-length']).toBe(String(jwt.length));
    expect(plain.body).toBe(jwt);
    for (const [encoding, decode] of Object.entries(decoders)) {
      // Twice: the first request makes the encoding, the second is served the kept one.
      for (const round of [1, 2]) {
        const response = await app.inject({ url: `/status-lists/${id}`, headers: { 'accept-encoding': encoding } });
        expect(response.statusCode).toBe(200);
        expect(response.headers['content-encoding'], `${encoding} #${round}`).toBe(encoding);
        expect(response.headers['content-length']).toBe(String(response.rawPayload.length));
        expect(response.headers.etag).toBe(plain.headers.etag);
        expect(response.headers.vary).toBe('Accept, Accept-Encoding');
        expect(decode(response.rawPayload).toString()).toBe(jwt);
      }
    }
    // A small list is never compressed (below the 1 KiB threshold).
    const small = newListId();
    const smallJwt = await signStatusListToken({ sub: listUri(small) });
    expect(smallJwt.length).toBeLessThan(1024);
    await call('POST', '/status-lists', { headers: API_KEY_HEADERS, body: { id: small, jwt: smallJwt } });
    const smallResponse = await app.inject({
      url: `/status-lists/${small}`,
      headers: { 'accept-encoding': 'gzip, br' },
    });
    expect(smallResponse.headers['content-encoding']).toBeUndefined();
    expect(smallResponse.body).toBe(smallJwt);
  });

  test('after a PATCH through this replica, serves the new token, validators and encodings at once', async ({
    harness: { app, call },
  }) => {
    const id = newListId();
    const v1 = await signStatusListToken({ sub: listUri(id), iat: 1_800_000_000, ttl: 120, statuses: largeStatuses() });
    const v2 = await signStatusListToken({ sub: listUri(id), iat: 1_800_000_100, ttl: 30, statuses: largeStatuses() });
    await call('POST', '/status-lists', { headers: API_KEY_HEADERS, body: { id, jwt: v1 } });

    // Every form of v1 is made and kept: identity, each coding, the 304.
    const before = await call('GET', `/status-lists/${id}`);
    expect(before.raw).toBe(v1);
    for (const encoding of Object.keys(decoders))
      await app.inject({ url: `/status-lists/${id}`, headers: { 'accept-encoding': encoding } });
    expect(
      (await call('GET', `/status-lists/${id}`, { headers: { 'if-none-match': before.headers.etag as string } }))
        .status,
    ).toBe(304);

    await new Promise((resolve) => setTimeout(resolve, 1100)); // so Last-Modified (seconds) can change
    expect((await call('PATCH', `/status-lists/${id}`, { headers: API_KEY_HEADERS, body: { jwt: v2 } })).status).toBe(
      200,
    );

    const after = await call('GET', `/status-lists/${id}`);
    expect(after.raw).toBe(v2);
    expect(after.headers.etag).not.toBe(before.headers.etag);
    expect(after.headers['content-length']).toBe(String(v2.length));
    expect(after.headers['cache-control']).toBe('public, max-age=30');
    expect(Date.parse(after.headers['last-modified'] as string)).toBeGreaterThan(
      Date.parse(before.headers['last-modified'] as string),
    );
    for (const [encoding, decode] of Object.entries(decoders)) {
      const response = await app.inject({ url: `/status-lists/${id}`, headers: { 'accept-encoding': encoding } });
      expect(decode(response.rawPayload).toString(), encoding).toBe(v2);
      expect(response.headers.etag).toBe(after.headers.etag);
      expect(response.headers['cache-control']).toBe('public, max-age=30');
    }
    // The old validator no longer matches; the new one does.
    const stale = await call('GET', `/status-lists/${id}`, {
      headers: { 'if-none-match': before.headers.etag as string },
    });
    expect(stale.status).toBe(200);
    expect(stale.raw).toBe(v2);
    const fresh = await call('GET', `/status-lists/${id}`, {
      headers: { 'if-none-match': after.headers.etag as string },
    });
    expect(fresh.status).toBe(304);
    expect(fresh.headers['cache-control']).toBe('public, max-age=30');
    expect(fresh.headers['content-type']).toBeUndefined();
  });

  test('answers HEAD with the headers of the GET and no body', async ({ harness: { app, call } }) => {
    const id = newListId();
    const jwt = await signStatusListToken({ sub: listUri(id), statuses: largeStatuses() });
    await call('POST', '/status-lists', { headers: API_KEY_HEADERS, body: { id, jwt } });
    const head = await app.inject({ method: 'HEAD', url: `/status-lists/${id}` });
    expect(head.statusCode).toBe(200);
    expect(head.body).toBe('');
    expect(head.headers['content-length']).toBe(String(jwt.length));
    expect(head.headers['content-type']).toBe('application/statuslist+jwt');
    expect(head.headers['access-control-allow-origin']).toBe('*');
  });
});
