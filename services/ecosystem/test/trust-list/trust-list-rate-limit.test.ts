import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect } from 'vitest';
import { missingServer } from '@tessera/service-kit/testing';
import { harnessTest } from '../support/fixtures.js';
import { createHarness } from '../support/harness.js';
import { expectStatus } from '../support/responses.js';

// Issue 28, item 8: the public trust-list routes are rate-limited per client address like
// the verifier's wallet routes (the kit's shared limits: judged in memory, shared between
// replicas through PostgreSQL, IPv6 by /64), and the limit comes before the token check.
// Over real HTTP, behind a proxy on loopback (TRUST_PROXY) that names each client.
const LIMIT = 5;
const WINDOW_MS = 600_000;
const SYNC_MS = 100;
const env = {
  TRUST_LIST_RATE_LIMIT_MAX: String(LIMIT),
  TRUST_LIST_RATE_LIMIT_WINDOW_MS: String(WINDOW_MS),
  RATE_LIMIT_SYNC_MS: String(SYNC_MS),
  TRUST_PROXY: '127.0.0.1',
};
// At the start of a window (windows are aligned to multiples of their length), so no test straddles two.
const offsetMs = WINDOW_MS - (Date.now() % WINDOW_MS);
const clock = () => new Date(Date.now() + offsetMs);

const test = harnessTest({ env, clock }).extend('base', { scope: 'file' }, async ({ harness, world }) => {
  expectStatus(
    await harness.call('PUT', `/v1/ecosystem/${world.ecosystemId}/trust-list/visibility`, {
      token: world.tokens.lead,
      body: { public: true },
    }),
    200,
  );
  return harness.app.listen({ host: '127.0.0.1', port: 0 });
});

const get = (base: string, path: string, client: string, headers: Record<string, string> = {}) =>
  fetch(`${base}${path}`, { headers: { 'x-forwarded-for': client, ...headers } });

describe('rate limits on the public trust-list routes', () => {
  test('answers 429 RATE_LIMITED with Retry-After and CORS headers past the limit, per client address and route', async ({
    base,
    world,
  }) => {
    const list = `/v1/ecosystem/${world.ecosystemId}/trust-list`;
    for (let i = 0; i < LIMIT; i++) expect((await get(base, list, '198.51.100.20')).status).toBe(200);
    const over = await get(base, list, '198.51.100.20');
    expect(over.status).toBe(429);
    expect(Number(over.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(over.headers.get('access-control-allow-origin')).toBe('*');
    expect(await over.json()).toMatchObject({
      statusCode: 429,
      code: 'RATE_LIMITED',
      message: expect.stringMatching(/retry after \d+ s/),
    });
    // A refused request is refused before its token is looked at (a bad token would be 401).
    expect((await get(base, list, '198.51.100.20', { authorization: 'Bearer not-a-token' })).status).toBe(429);
    // Another address, and the CA route for the same address, have counts of their own.
    expect((await get(base, list, '198.51.100.21')).status).toBe(200);
    expect((await get(base, '/v1/trust-list-ca.pem', '198.51.100.20')).status).toBe(200);
  });

  test('counts IPv6 clients by their /64', async ({ base }) => {
    const statuses: number[] = [];
    for (let i = 1; i <= LIMIT + 3; i++)
      statuses.push((await get(base, '/v1/trust-list-ca.pem', `2001:db8:77:1::${i.toString(16)}`)).status);
    expect(statuses).toEqual([...Array<number>(LIMIT).fill(200), 429, 429, 429]);
    expect((await get(base, '/v1/trust-list-ca.pem', '2001:db8:77:2::1')).status).toBe(200);
  });

  describe.skipIf(missingServer('postgres', 'the trust-list limit across two ecosystem replicas'))('', () => {
    test('two replicas on one database enforce one limit together, within 2 × RATE_LIMIT_SYNC_MS', async ({
      harness,
      world,
      base,
    }) => {
      const replica = await createHarness({ env, clock, databaseUrl: harness.databaseUrl! });
      try {
        const other = await replica.app.listen({ host: '127.0.0.1', port: 0 });
        const list = `/v1/ecosystem/${world.ecosystemId}/trust-list`;
        for (let i = 0; i < LIMIT; i++) expect((await get(base, list, '203.0.113.30')).status).toBe(200);
        await sleep(2 * SYNC_MS + 400);
        expect((await get(other, list, '203.0.113.30')).status).toBe(429);
      } finally {
        await replica.close();
      }
    });
  });
});
