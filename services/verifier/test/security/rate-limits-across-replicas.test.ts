import { setTimeout as sleep } from 'node:timers/promises';
import { sql } from 'drizzle-orm';
import { describe, expect } from 'vitest';
import { postgresRateLimitWindows, rowsOf } from '@tessera/service-kit';
import { missingServer } from '@tessera/service-kit/testing';
import { harnessFixture, harnessTest } from '../support/fixtures.js';
import { offsetToNextWindow } from '../support/rate-limit-windows.js';

// The per-address limit shared through PostgreSQL: two apps on one database (two pods)
// enforce one limit together once their counts have been exchanged — within the
// staleness bound, 2 × RATE_LIMIT_SYNC_MS — and a window that ended starts again.
const SYNC_MS = 100;
/** The staleness bound, with room for the statement on a busy machine. */
const SHARED_WITHIN_MS = 2 * SYNC_MS + 400;
const WINDOW_MS = 60_000;
const LIMITS = {
  WALLET_RATE_LIMIT_MAX: '3',
  WALLET_RATE_LIMIT_WINDOW_MS: String(WINDOW_MS),
  RATE_LIMIT_SYNC_MS: String(SYNC_MS),
};
const test = harnessTest({ config: LIMITS }).extend('replica', { scope: 'file' }, async ({ harness }, hooks) =>
  harnessFixture({
    databaseUrl: harness.testDb.url!,
    config: { ...LIMITS, KEY_ENCRYPTION_KEY: harness.config.KEY_ENCRYPTION_KEY! },
  })({}, hooks),
);

const url = '/oid4vp/authorization-requests/unknown';

describe.skipIf(missingServer('postgres', 'rate limits across two verifier replicas'))(
  'per-address rate limits across replicas',
  () => {
    test('two replicas on one database enforce one limit together, answer 429 with Retry-After, and start again when the window ends', async ({
      harness,
      replica,
    }) => {
      const send = (app: typeof harness.app, remoteAddress = '198.51.100.7') =>
        app.inject({ method: 'GET', url, remoteAddress });
      // Both replicas at the start of a window, so the test never straddles two.
      harness.clock.offsetMs = replica.clock.offsetMs = offsetToNextWindow(WINDOW_MS);
      // Three allowed in all, whichever replica answers, once each has seen the others' counts.
      expect((await send(harness.app)).statusCode).toBe(404);
      await sleep(SHARED_WITHIN_MS);
      expect((await send(replica.app)).statusCode).toBe(404);
      await sleep(SHARED_WITHIN_MS);
      expect((await send(harness.app)).statusCode).toBe(404);
      await sleep(SHARED_WITHIN_MS);
      for (const app of [replica.app, harness.app]) {
        const over = await send(app);
        expect(over.statusCode).toBe(429);
        const retryAfter = Number(over.headers['retry-after']);
        expect(retryAfter).toBeGreaterThan(0);
        expect(retryAfter).toBeLessThanOrEqual(WINDOW_MS / 1000);
        expect(over.json()).toEqual({
          error: 'temporarily_unavailable',
          error_description: expect.stringMatching(/retry after/),
        });
      }
      // Another address has its own count; the table holds hashes, never the address.
      expect((await send(replica.app, '198.51.100.8')).statusCode).toBe(404);
      await sleep(SHARED_WITHIN_MS);
      const stored = rowsOf<{ key: string }>(
        await harness.testDb.database.db.execute(sql`select key from verifier.rate_limit_windows`),
      );
      expect(stored.length).toBeGreaterThanOrEqual(2);
      expect(stored.every(({ key }) => /^[A-Za-z0-9_-]{43}$/.test(key))).toBe(true);

      // The next window (both replicas' clocks a window ahead) starts again.
      harness.clock.offsetMs = replica.clock.offsetMs = harness.clock.offsetMs + WINDOW_MS;
      try {
        expect((await send(replica.app)).statusCode).toBe(404);
        expect((await send(harness.app)).statusCode).toBe(404);
      } finally {
        harness.clock.offsetMs = replica.clock.offsetMs = 0;
      }
    });

    test('a count made on one replica stops the other within the staleness bound (2 × RATE_LIMIT_SYNC_MS)', async ({
      harness,
      replica,
    }) => {
      const send = (app: typeof harness.app) => app.inject({ method: 'GET', url, remoteAddress: '203.0.113.40' });
      harness.clock.offsetMs = replica.clock.offsetMs = offsetToNextWindow(WINDOW_MS);
      for (let i = 0; i < 3; i++) expect((await send(harness.app)).statusCode).toBe(404);
      expect((await send(harness.app)).statusCode).toBe(429);
      // The other replica learns of the three within 2 × RATE_LIMIT_SYNC_MS, and from then on refuses too.
      const counted = Date.now();
      let refusedAfterMs: number | undefined;
      try {
        while (Date.now() - counted < 5000) {
          if ((await send(replica.app)).statusCode === 429) {
            refusedAfterMs = Date.now() - counted;
            break;
          }
          await sleep(10);
        }
        expect(refusedAfterMs).toBeDefined();
        expect(refusedAfterMs!).toBeLessThanOrEqual(SHARED_WITHIN_MS);
        expect((await send(replica.app)).statusCode).toBe(429);
      } finally {
        harness.clock.offsetMs = replica.clock.offsetMs = 0;
      }
    });

    test('the cleanup deletes ended windows in bounded batches and leaves running ones', async ({ harness }) => {
      const db = harness.testDb.database.db;
      await db.execute(sql`delete from verifier.rate_limit_windows`);
      await db.execute(sql`insert into verifier.rate_limit_windows (key, count, window_ends_at)
      select 'ended-' || n, 1, now() - interval '1 second' from generate_series(1, 5) n
      union all select 'running', 1, now() + interval '1 minute'`);
      const windows = postgresRateLimitWindows(db, { schema: 'verifier' });
      expect(await windows.deleteEnded(3)).toBe(3);
      expect(await windows.deleteEnded(3)).toBe(2);
      expect(await windows.deleteEnded(3)).toBe(0);
      expect(
        rowsOf<{ key: string }>(
          await db.execute(sql`select key from verifier.rate_limit_windows where key in ('running', 'ended-1')`),
        ),
      ).toEqual([{ key: 'running' }]);
    });
  },
);
