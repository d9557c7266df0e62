import { rmSync } from 'node:fs';
import postgres from 'postgres';
import { afterAll, describe, expect, it } from 'vitest';
import { migrateDatabase, migratePostgresUrl, openDatabase } from '../src/index.js';
import { missingServer, testBackends } from '../src/testing/index.js';
import { createMigrationsFolder } from './fixtures/migrations-folder.js';
import { randomBytes } from 'node:crypto';
import { sql } from 'drizzle-orm';

// One migration, slow on purpose, to widen the race window.
const folder = createMigrationsFolder([
  'CREATE SCHEMA "kit";',
  'SELECT pg_sleep(0.3);',
  'CREATE TABLE "kit"."things" ("id" integer PRIMARY KEY);',
]);
afterAll(() => rmSync(folder, { recursive: true, force: true }));

describe('migrations', () => {
  it('apply to the embedded PGlite', async () => {
    const database = await openDatabase({ schema: {} });
    await migrateDatabase(database, { service: 'kit', migrationsFolder: folder });
    await migrateDatabase(database, { service: 'kit', migrationsFolder: folder });
    await database.db.execute(sql`insert into kit.things (id) values (1)`);
    const result = (await database.db.execute(sql`select count(*)::int as n from kit.things`)) as unknown as {
      rows: Array<{ n: number }>;
    };
    expect(result.rows[0]!.n).toBe(1);
    await database.close();
  });

  describe.skipIf(missingServer('postgres', 'concurrent migrations'))('on a PostgreSQL server', () => {
    it('several replicas starting together migrate once, under the advisory lock', async () => {
      const admin = postgres(testBackends().postgres.adminUrl!, { max: 1, onnotice: () => {} });
      const name = `t_kit_${randomBytes(4).toString('hex')}`;
      await admin.unsafe(`create database "${name}"`);
      const url = new URL(testBackends().postgres.adminUrl!);
      url.pathname = `/${name}`;
      try {
        await Promise.all(
          [1, 2, 3, 4].map(() => migratePostgresUrl(url.toString(), { service: 'kit', migrationsFolder: folder })),
        );
        const client = postgres(url.toString(), { max: 1, onnotice: () => {} });
        const applied = await client`select count(*)::int as n from drizzle.__migrations_kit`;
        expect(applied[0]!.n).toBe(1);
        await client.end();
      } finally {
        await admin.unsafe(`drop database if exists "${name}" with (force)`);
        await admin.end();
      }
    });
  });
});
