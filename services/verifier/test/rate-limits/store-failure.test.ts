import { setTimeout as sleep } from 'node:timers/promises';
import { sql } from 'drizzle-orm';
import { describe, expect } from 'vitest';
import { missingServer } from '@tessera/service-kit/testing';
import { harnessTest } from '../support/fixtures.js';
import { offsetToNextWindow } from '../support/rate-limit-windows.js';

// Issue 28, item 1: the per-address limit is judged in memory, so a request never waits
// for the shared store, and a store that fails leaves each replica enforcing the limit on
// its own: 429 past it, never a 500.
const LIMIT = 3;
const WINDOW_MS = 600_000;
const test = harnessTest({
  config: {
    WALLET_RATE_LIMIT_MAX: String(LIMIT),
    WALLET_RATE_LIMIT_WINDOW_MS: String(WINDOW_MS),
    RATE_LIMIT_SYNC_MS: '100',
  },
}).extend('base', { scope: 'file' }, async ({ harness }) => harness.app.listen({ host: '127.0.0.1', port: 0 }));

/** `count` requests from one address (as the app sees it) in turn; answers their statuses and the slowest, in ms. */
async function send(base: string, count: number): Promise<{ statuses: number[]; slowestMs: number }> {
  const statuses: number[] = [];
  let slowestMs = 0;
  for (let i = 0; i < count; i++) {
    const started = performance.now();
    const response = await fetch(`${base}/oid4vp/authorization-requests/unknown-request`, {
      signal: AbortSignal.timeout(10_000),
    });
    await response.arrayBuffer();
    statuses.push(response.status);
    slowestMs = Math.max(slowestMs, performance.now() - started);
  }
  return { statuses, slowestMs };
}

describe.skipIf(missingServer('postgres', 'the rate-limit store held and failing'))(
  'the per-address limit when its store stalls or fails',
  () => {
    test('with the store locked, limited requests still answer at once (no statement waits on it), and 429 past the limit', async ({
      harness,
      base,
    }) => {
      const other = await harness.testDb.openAnother();
      let release!: () => void;
      const held = new Promise<void>((resolve) => (release = resolve));
      let locked!: () => void;
      const isLocked = new Promise<void>((resolve) => (locked = resolve));
      const holder = other.db.transaction(async (tx) => {
        await tx.execute(sql`lock table verifier.rate_limit_windows in access exclusive mode`);
        locked();
        await held;
      });
      harness.clock.offsetMs = offsetToNextWindow(WINDOW_MS);
      try {
        await isLocked;
        const { statuses, slowestMs } = await send(base, LIMIT + 50);
        expect(statuses).toEqual([...Array<number>(LIMIT).fill(404), ...Array<number>(50).fill(429)]);
        // A statement on the locked table would wait for the lock (here: for ever).
        expect(slowestMs).toBeLessThan(2000);
      } finally {
        release();
        await holder;
        await other.close();
      }
    });

    test('with the store failing, each replica limits on its own: 429 past the limit, never a 500; the counts are shared again once it is back', async ({
      harness,
      base,
    }) => {
      const db = harness.testDb.database.db;
      // A new window for a fresh count.
      harness.clock.offsetMs = offsetToNextWindow(WINDOW_MS, harness.clock.offsetMs);
      await db.execute(sql`alter table verifier.rate_limit_windows rename to rate_limit_windows_away`);
      try {
        const { statuses } = await send(base, LIMIT + 20);
        expect(statuses).toEqual([...Array<number>(LIMIT).fill(404), ...Array<number>(20).fill(429)]);
        await sleep(300);
        expect((await send(base, 5)).statuses).toEqual(Array<number>(5).fill(429));
      } finally {
        await db.execute(sql`alter table verifier.rate_limit_windows_away rename to rate_limit_windows`);
      }
      // Back: the counts made meanwhile reach the store with the next exchange.
      let shared = 0;
      for (let waited = 0; waited < 3000 && shared < LIMIT; waited += 100) {
        await sleep(100);
        const [row] = (await db.execute(
          sql`select coalesce(max(count), 0)::int as count from verifier.rate_limit_windows where window_ends_at > now() + interval '5 minutes'`,
        )) as unknown as Array<{ count: number }>;
        shared = row?.count ?? 0;
      }
      expect(shared).toBeGreaterThanOrEqual(LIMIT);
      harness.clock.offsetMs = 0;
    });
  },
);
