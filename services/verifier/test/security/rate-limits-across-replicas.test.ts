import { setTimeout as sleep } from 'node:timers/promises';
import { sql } from 'drizzle-orm';
import { describe, expect } from 'vitest';
import { rowsOf } from '@tessera/service-kit';
import { missingServer } from '@tessera/service-kit/testing';
import { cleanUpRateLimitWindows } from '../../src/use-cases/clean-up-rate-limit-windows.js';
import { harnessFixture, harnessTest } from '../support/fixtures.js';

// The per-address limit counted in PostgreSQL: two apps on one database (two pods)
// enforce one limit together, and a window that ended starts again.
const WINDOW_MS = 2000;
const LIMITS = { WALLET_RATE_LIMIT_MAX: '3', WALLET_RATE_LIMIT_WINDOW_MS: String(WINDOW_MS) };
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
      // Three allowed in all, whichever replica answers.
      expect((await send(harness.app)).statusCode).toBe(404);
      expect((await send(replica.app)).statusCode).toBe(404);
      expect((await send(harness.app)).statusCode).toBe(404);
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
      const stored = rowsOf<{ key: string }>(
        await harness.testDb.database.db.execute(sql`select key from verifier.rate_limit_windows`),
      );
      expect(stored.length).toBeGreaterThanOrEqual(2);
      expect(stored.every(({ key }) => /^[A-Za-z0-9_-]{43}$/.test(key))).toBe(true);

      await sleep(WINDOW_MS + 100);
      expect((await send(replica.app)).statusCode).toBe(404);
      expect((await send(harness.app)).statusCode).toBe(404);
    });

    test('the cleanup deletes ended windows in bounded batches and leaves running ones', async ({ harness }) => {
      const db = harness.testDb.database.db;
      await db.execute(sql`delete from verifier.rate_limit_windows`);
      await db.execute(sql`insert into verifier.rate_limit_windows (key, count, window_ends_at)
      select 'ended-' || n, 1, now() - interval '1 second' from generate_series(1, 5) n
      union all select 'running', 1, now() + interval '1 minute'`);
      const cleanUp = async () => (await cleanUpRateLimitWindows({ db }, { batchSize: 3 })).deleted;
      expect(await cleanUp()).toBe(3);
      expect(await cleanUp()).toBe(2);
      expect(await cleanUp()).toBe(0);
      expect(rowsOf<{ key: string }>(await db.execute(sql`select key from verifier.rate_limit_windows`))).toEqual([
        { key: 'running' },
      ]);
    });
  },
);
