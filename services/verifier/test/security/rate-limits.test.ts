import { test as base, describe, expect } from 'vitest';
import { harnessFixture } from '../support/fixtures.js';
import { offsetToNextWindow } from '../support/rate-limit-windows.js';

// Rate limits on the public OID4VP endpoints, per route and client address: two
// apps, one allowing two requests per window and one allowing three.
const test = base
  .extend(
    'twoPerWindow',
    { scope: 'file' },
    harnessFixture({ config: { WALLET_RATE_LIMIT_MAX: '2', WALLET_RATE_LIMIT_WINDOW_MS: '60000' } }),
  )
  .extend(
    'threePerWindow',
    { scope: 'file' },
    harnessFixture({ config: { WALLET_RATE_LIMIT_MAX: '3', WALLET_RATE_LIMIT_WINDOW_MS: '60000' } }),
  );

const form = (fields: Record<string, string>) => new URLSearchParams(fields).toString();

describe('rate limits on the public OID4VP endpoints', () => {
  test('answers 429 with Retry-After and the error body once a client address is over the limit', async ({
    twoPerWindow: limited,
  }) => {
    // At the start of a window (windows are aligned), so the test never straddles two.
    limited.clock.offsetMs = offsetToNextWindow(60000);
    const url = '/oid4vp/authorization-requests/unknown';
    expect((await limited.call('GET', url)).status).toBe(404);
    expect((await limited.call('GET', url)).status).toBe(404);
    const over = await limited.call('GET', url);
    expect(over.status).toBe(429);
    expect(Number(over.headers['retry-after'])).toBeGreaterThan(0);
    expect(over.body).toEqual({
      error: 'temporarily_unavailable',
      error_description: expect.stringMatching(/retry after/),
    });
    const elsewhere = await limited.app.inject({ method: 'GET', url, remoteAddress: '10.0.0.9' });
    expect(elsewhere.statusCode).toBe(404);
    const ca = '/oid4vp/platform-ca.pem';
    await limited.app.inject({ method: 'GET', url: ca, remoteAddress: '10.0.0.7' });
    await limited.app.inject({ method: 'GET', url: ca, remoteAddress: '10.0.0.7' });
    const caOver = await limited.app.inject({ method: 'GET', url: ca, remoteAddress: '10.0.0.7' });
    expect(caOver.statusCode).toBe(429);
    expect(caOver.json()).toMatchObject({ statusCode: 429, code: 'RATE_LIMITED' });
  });

  test('answers 429 with Retry-After and an OAuth body on the request and response endpoints, per client address', async ({
    threePerWindow: limited,
  }) => {
    limited.clock.offsetMs = offsetToNextWindow(60000);
    const urls = [
      { method: 'POST' as const, url: '/oid4vp/authorization-responses/unknown' },
      { method: 'POST' as const, url: '/oid4vp/authorization-requests/unknown' },
      { method: 'GET' as const, url: '/oid4vp/authorization-requests/unknown' },
    ];
    for (const { method, url } of urls) {
      const send = (remoteAddress = '10.1.1.1') =>
        limited.app.inject({
          method,
          url,
          remoteAddress,
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
          ...(method === 'POST' ? { payload: form({ error: 'access_denied' }) } : {}),
        });
      for (let i = 0; i < 3; i++) expect((await send()).statusCode).toBe(404);
      const over = await send();
      expect(over.statusCode, `${method} ${url}`).toBe(429);
      expect(Number(over.headers['retry-after'])).toBeGreaterThan(0);
      expect(over.json()).toEqual({ error: 'temporarily_unavailable', error_description: expect.any(String) });
      expect((await send('10.1.1.2')).statusCode).toBe(404);
    }
  });
});
