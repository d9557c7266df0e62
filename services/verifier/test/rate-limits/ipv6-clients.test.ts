import { describe, expect } from 'vitest';
import { harnessTest } from '../support/fixtures.js';
import { offsetToNextWindow } from '../support/rate-limit-windows.js';

// Issue 28, item 1: whoever holds a /64 holds 2^64 addresses, so IPv6 clients are counted
// by their /64 (RATE_LIMIT_IPV6_PREFIX). Over real HTTP: the app behind a proxy on
// loopback (TRUST_PROXY) that names each client in X-Forwarded-For.
const LIMIT = 1000;
const WINDOW_MS = 600_000;
const test = harnessTest({
  config: {
    WALLET_RATE_LIMIT_MAX: String(LIMIT),
    WALLET_RATE_LIMIT_WINDOW_MS: String(WINDOW_MS),
    TRUST_PROXY: '127.0.0.1',
  },
}).extend('base', { scope: 'file' }, async ({ harness }) => {
  // A whole window ahead of each test (windows are aligned), so no test straddles two.
  harness.clock.offsetMs = offsetToNextWindow(WINDOW_MS);
  return harness.app.listen({ host: '127.0.0.1', port: 0 });
});

/** Sends one request per client address, `parallel` at a time; answers each status, in the order of `clients`. */
async function requestFrom(base: string, clients: string[], parallel = 16): Promise<number[]> {
  const statuses: number[] = new Array(clients.length);
  let next = 0;
  const worker = async () => {
    for (let index = next++; index < clients.length; index = next++) {
      const response = await fetch(`${base}/oid4vp/authorization-requests/unknown-request`, {
        headers: { 'x-forwarded-for': clients[index]! },
      });
      await response.arrayBuffer();
      statuses[index] = response.status;
    }
  };
  await Promise.all(Array.from({ length: parallel }, worker));
  return statuses;
}

const count = (statuses: number[], status: number) => statuses.filter((s) => s === status).length;

describe('rate limits for IPv6 clients', () => {
  test('2,000 requests from distinct addresses of one /64 share one limit: 429 past it, while the next /64 is not held back', async ({
    base,
  }) => {
    const clients = Array.from(
      { length: 2000 },
      (_, i) => `2001:db8:5:77:${(i >> 8).toString(16)}:${(i & 0xff).toString(16)}:0:1`,
    );
    const statuses = await requestFrom(base, clients);
    expect(count(statuses, 404)).toBe(LIMIT);
    expect(count(statuses, 429)).toBe(2000 - LIMIT);
    expect(new Set(statuses)).toEqual(new Set([404, 429]));
    // Counted in order: everything past the limit is refused.
    const lastAdmitted = statuses.lastIndexOf(404);
    expect(count(statuses.slice(lastAdmitted + 1), 429)).toBe(2000 - lastAdmitted - 1);
    // A neighbouring /64 (another subscriber) and an IPv4 client have counts of their own.
    expect(await requestFrom(base, ['2001:db8:5:78::1', '192.0.2.55'])).toEqual([404, 404]);
  });

  test('an IPv4-mapped IPv6 address counts as its IPv4 address', async ({ base }) => {
    const statuses = await requestFrom(base, [
      ...Array.from({ length: LIMIT }, () => '198.51.100.200'),
      '::ffff:198.51.100.200',
    ]);
    expect(count(statuses, 404)).toBe(LIMIT);
    expect(statuses.at(-1)).toBe(429);
  });
});
