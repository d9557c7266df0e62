import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import {
  compareSchemaVersion,
  migrateDatabase,
  openDatabase,
  readSchemaVersion,
  waitForCurrentSchema,
  type Database,
} from '../src/index.js';
import { captureLogger, freePort } from '../src/testing/index.js';

const MIGRATIONS = [
  {
    tag: '0000_init',
    when: 1700000000000,
    sql: 'CREATE SCHEMA "kit";\n--> statement-breakpoint\nCREATE TABLE "kit"."things" ("id" integer PRIMARY KEY);',
  },
  { tag: '0001_names', when: 1700000100000, sql: 'ALTER TABLE "kit"."things" ADD COLUMN "name" text;' },
];

/** A drizzle folder holding the first `count` migrations: an older release's or this one's. */
function migrationsFolder(count: number): string {
  const dir = mkdtempSync(join(tmpdir(), 'kit-schema-'));
  mkdirSync(join(dir, 'meta'));
  const entries = MIGRATIONS.slice(0, count).map((migration, idx) => {
    writeFileSync(join(dir, `${migration.tag}.sql`), migration.sql);
    return { idx, version: '7', when: migration.when, tag: migration.tag, breakpoints: true };
  });
  writeFileSync(join(dir, 'meta', '_journal.json'), JSON.stringify({ version: '7', dialect: 'postgresql', entries }));
  return dir;
}

const older = migrationsFolder(1);
const newer = migrationsFolder(2);
afterAll(() => [older, newer].forEach((dir) => rmSync(dir, { recursive: true, force: true })));

describe('schema version', () => {
  it('compares with drizzle’s rule: journal migrations after the newest applied are pending; newer applied ones are unknown', () => {
    const journal = MIGRATIONS.map(({ tag, when }) => ({ tag, when, hash: tag }));
    expect(compareSchemaVersion(journal, [])).toEqual({
      state: 'behind',
      applied: 0,
      expected: 2,
      pending: ['0000_init', '0001_names'],
      unknown: 0,
    });
    expect(compareSchemaVersion(journal, [{ hash: 'a', createdAt: MIGRATIONS[0]!.when }])).toMatchObject({
      state: 'behind',
      applied: 1,
      lastApplied: '0000_init',
      pending: ['0001_names'],
    });
    expect(
      compareSchemaVersion(
        journal,
        journal.map(({ when }) => ({ hash: 'x', createdAt: when })),
      ),
    ).toMatchObject({ state: 'current', applied: 2, pending: [] });
    expect(
      compareSchemaVersion(
        journal.slice(0, 1),
        journal.map(({ when }) => ({ hash: 'x', createdAt: when })),
      ),
    ).toMatchObject({ state: 'ahead', unknown: 1 });
  });

  it('holds the service’s address while behind — alive, not ready, requests 503 — and goes on once the migration ran', async () => {
    const database = (await openDatabase({ schema: {} })) as Database<Record<string, unknown>>;
    const logs = captureLogger('kit-schema', 'info');
    try {
      await migrateDatabase(database, { service: 'kit', migrationsFolder: older });
      expect(await readSchemaVersion(database, { service: 'kit', migrationsFolder: newer })).toMatchObject({
        state: 'behind',
        applied: 1,
        expected: 2,
        pending: ['0001_names'],
      });

      const port = await freePort();
      const base = `http://127.0.0.1:${port}`;
      let finished = false;
      const waiting = waitForCurrentSchema(database, {
        service: 'kit',
        migrationsFolder: newer,
        logger: logs.logger,
        listenOn: { HOST: '127.0.0.1', PORT: port },
        recheckMs: 50,
      }).finally(() => (finished = true));
      const answer = async (path: string) => {
        for (;;) {
          try {
            const response = await fetch(`${base}${path}`);
            return { status: response.status, body: await response.json() };
          } catch {
            await new Promise((resolve) => setTimeout(resolve, 20));
          }
        }
      };
      expect(await answer('/health')).toEqual({ status: 200, body: { status: 'ok' } });
      expect(await answer('/health/ready')).toEqual({
        status: 503,
        body: { status: 'unavailable', checks: { database: 'ok', schema: 'behind' } },
      });
      expect(await answer('/v1/things')).toMatchObject({
        status: 503,
        body: { statusCode: 503, code: 'DEPENDENCY_UNAVAILABLE' },
      });
      await new Promise((resolve) => setTimeout(resolve, 200));
      expect(finished).toBe(false);
      expect(logs.text()).toContain('1 of 2 migrations applied (last applied: 0000_init), expected up to 0001_names');

      await migrateDatabase(database, { service: 'kit', migrationsFolder: newer });
      expect(await waiting).toMatchObject({ state: 'current', applied: 2 });
      // The holding listener is gone: the service's own app listens there next.
      await expect(fetch(`${base}/health`)).rejects.toThrow();
    } finally {
      await database.close();
    }
  });

  it('serves a schema ahead of the code (a rollback) at once, with a warning', async () => {
    const database = (await openDatabase({ schema: {} })) as Database<Record<string, unknown>>;
    const logs = captureLogger('kit-schema', 'info');
    try {
      await migrateDatabase(database, { service: 'kit', migrationsFolder: newer });
      const version = await waitForCurrentSchema(database, {
        service: 'kit',
        migrationsFolder: older,
        logger: logs.logger,
        listenOn: { HOST: '127.0.0.1', PORT: await freePort() },
      });
      expect(version).toMatchObject({ state: 'ahead', unknown: 1 });
      expect(logs.text()).toContain('ahead of this version');
    } finally {
      await database.close();
    }
  });
});
