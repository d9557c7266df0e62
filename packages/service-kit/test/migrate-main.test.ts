import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import postgres from 'postgres';
import { afterAll, describe, expect, it } from 'vitest';
import { loadMigrateConfig } from '../src/index.js';
import { createEmptyDatabase, missingServer, testBackends } from '../src/testing/index.js';
import { createMigrationsFolder } from './fixtures/migrations-folder.js';

const fixture = fileURLToPath(new URL('./fixtures/run-migrate-main.mjs', import.meta.url));
const folder = createMigrationsFolder([
  'CREATE SCHEMA "kit_migrate";',
  'CREATE TABLE "kit_migrate"."things" ("id" integer PRIMARY KEY);',
]);
afterAll(() => rmSync(folder, { recursive: true, force: true }));

/** Runs the migrate entry with exactly `env` (plus PATH and the migrations folder). */
function runMigrate(env: Record<string, string>): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [fixture], {
      env: { PATH: process.env.PATH ?? '', MIGRATIONS: folder, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk));
    child.once('exit', (code) => resolve({ code, output }));
  });
}

describe('loadMigrateConfig', () => {
  it('reads the database settings only: a service secret, OIDC or NATS setting is neither needed nor read', () => {
    const config = loadMigrateConfig({
      NODE_ENV: 'production',
      DATABASE_URL: 'postgres://db.example.com/tessera?sslmode=verify-full',
      API_KEY: 'short',
      OIDC_ISSUER: 'not a url',
      NATS_URL: 'nonsense',
    });
    expect(config).toEqual({
      NODE_ENV: 'production',
      LOG_LEVEL: 'info',
      DATABASE_URL: 'postgres://db.example.com/tessera?sslmode=verify-full',
      DATA_DIR: './.data',
    });
  });

  it('refuses, in production, a connection that verifies nothing, as the services do', () => {
    expect(() =>
      loadMigrateConfig({ NODE_ENV: 'production', DATABASE_URL: 'postgres://db.example.com/tessera?sslmode=require' }),
    ).toThrow(/DATABASE_URL: sslmode=require does not verify the server/);
  });
});

describe('runMigrateMain', () => {
  it('applies the migrations to the embedded PGlite under DATA_DIR/<service> without a DATABASE_URL, then exits 0', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'kit-migrate-'));
    try {
      const { code, output } = await runMigrate({ NODE_ENV: 'production', DATA_DIR: dataDir });
      expect(code, output).toBe(0);
      expect(output).toContain('migrations complete');
      expect(existsSync(join(dataDir, 'kit-migrate', 'PG_VERSION'))).toBe(true);
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });

  it('exits 1 with one line per bad database setting, never quoting a value', async () => {
    const { code, output } = await runMigrate({
      NODE_ENV: 'production',
      DATABASE_URL: 'postgres://tessera:s3cret-password@db.example.com/tessera?sslmode=require',
      LOG_LEVEL: 'loud',
    });
    expect(code).toBe(1);
    expect(output).toContain('kit-migrate: invalid configuration');
    expect(output).toContain('LOG_LEVEL: must be one of');
    expect(output).toContain('DATABASE_URL: sslmode=require does not verify the server');
    expect(output).not.toContain('s3cret-password');
  });

  describe.skipIf(missingServer('postgres', 'the migrate entry on a PostgreSQL server'))(
    'on a PostgreSQL server',
    () => {
      it('applies the migrations of DATABASE_URL with nothing else set, exits 0, and finds nothing to do the second time', async () => {
        const url = await createEmptyDatabase(testBackends().postgres.adminUrl!);
        const admin = postgres(testBackends().postgres.adminUrl!, { max: 1, onnotice: () => {} });
        try {
          for (const run of [1, 2]) {
            const { code, output } = await runMigrate({ DATABASE_URL: url });
            expect(code, `run ${run}: ${output}`).toBe(0);
          }
          const client = postgres(url, { max: 1, onnotice: () => {} });
          const applied = await client`select count(*)::int as n from drizzle.__migrations_kit_migrate`;
          const tables =
            await client`select count(*)::int as n from information_schema.tables where table_schema = 'kit_migrate'`;
          await client.end();
          expect(applied[0]!.n).toBe(1);
          expect(tables[0]!.n).toBe(1);
        } finally {
          await admin.unsafe(`drop database if exists "${new URL(url).pathname.slice(1)}" with (force)`);
          await admin.end();
        }
      });

      it('exits 1 and says why when the database cannot be reached', async () => {
        const { code, output } = await runMigrate({ DATABASE_URL: 'postgres://nobody@127.0.0.1:1/none' });
        expect(code).toBe(1);
        expect(output).toContain('migrations failed');
      });
    },
  );
});
