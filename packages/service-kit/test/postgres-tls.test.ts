import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import postgres from 'postgres';
import { Type } from 'typebox';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ConfigError,
  commonConfigProperties,
  databaseTlsConfigRule,
  loadConfig,
  migratePostgresUrl,
  openDatabase,
  openServiceDatabase,
} from '../src/index.js';
import {
  createEmptyDatabase,
  missingServerBinary,
  silentLogger,
  startPrivatePostgres,
  testBackends,
  writeTestTlsFiles,
  type PrivateServer,
  type TestTlsFiles,
} from '../src/testing/index.js';

/*
 * Verified TLS to PostgreSQL (issue 17 item 4), against a real server whose certificate names
 * "localhost" only: CI's own PostgreSQL (.ci/run makes its CA for the run and passes it as
 * TEST_DATABASE_CA_FILE), or elsewhere a PostgreSQL this file starts from local binaries
 * with a CA it makes. Each run works in a fresh database.
 */

/** Opens a pool on `url` and reports whether a query over TLS went through (and the session was TLS). */
async function connectsOverTls(url: string, caFile?: string): Promise<boolean> {
  const database = await openDatabase({ schema: {}, url, connectTimeoutSeconds: 5, ...(caFile ? { caFile } : {}) });
  try {
    // The driver's own query first: its error is the TLS one, unwrapped by Drizzle.
    await database.ping();
    const rows = (await database.db.execute(
      'select ssl from pg_stat_ssl where pid = pg_backend_pid()' as never,
    )) as unknown as Array<{ ssl: boolean }>;
    return rows[0]?.ssl === true;
  } finally {
    await database.close();
  }
}

const harness = testBackends().postgres;
const harnessHasTls = !!(harness.caFile && harness.adminUrl);

describe.skipIf(!harnessHasTls && missingServerBinary('postgres', 'PostgreSQL TLS'))(
  'PostgreSQL over verified TLS',
  () => {
    let dir: string;
    let trusted: { caFile: string };
    let untrusted: TestTlsFiles;
    let server: PrivateServer | undefined;
    let port: string;
    let database: string;
    /** This file's database on the TLS server, reached as `host`, with `query` (e.g. `?sslmode=verify-full`). */
    const urlOf = (host: string, query = '') => `postgres://postgres@${host}:${port}/${database}${query}`;

    beforeAll(async () => {
      dir = mkdtempSync(join(tmpdir(), 'kit-pg-tls-'));
      // Same host name, another CA: what a man in the middle would present.
      untrusted = await writeTestTlsFiles(dir, { hosts: ['localhost'], prefix: 'other-' });
      let adminUrl: string;
      if (harnessHasTls) {
        trusted = { caFile: harness.caFile! };
        adminUrl = harness.adminUrl!;
      } else {
        const files = await writeTestTlsFiles(dir, { hosts: ['localhost'] });
        server = await startPrivatePostgres({ tls: files });
        if (!server) throw new Error('PostgreSQL binaries were found but the TLS server did not start');
        trusted = files;
        adminUrl = server.url;
      }
      const url = new URL(await createEmptyDatabase(adminUrl));
      port = url.port;
      database = url.pathname.slice(1);
    }, 60_000);

    afterAll(async () => {
      if (server) await server.destroy();
      else if (database) {
        const admin = postgres(harness.adminUrl!, { max: 1, onnotice: () => {} });
        await admin.unsafe(`drop database if exists "${database}" with (force)`).catch(() => {});
        await admin.end();
      }
      rmSync(dir, { recursive: true, force: true });
    });

    it('connects with full verification when DATABASE_CA_FILE is the server CA', async () => {
      expect(await connectsOverTls(urlOf('localhost', '?sslmode=verify-full'), trusted.caFile)).toBe(true);
      // DATABASE_CA_FILE alone means full verification, whatever sslmode says.
      expect(await connectsOverTls(urlOf('localhost'), trusted.caFile)).toBe(true);
    });

    it('refuses a server certificate for another host name', async () => {
      // The certificate names "localhost"; the URL names 127.0.0.1.
      await expect(connectsOverTls(urlOf('127.0.0.1', '?sslmode=verify-full'), trusted.caFile)).rejects.toThrow(
        /altnames|does not match|IP: 127\.0\.0\.1/i,
      );
      await expect(connectsOverTls(urlOf('127.0.0.1'), trusted.caFile)).rejects.toThrow(/altnames|does not match/i);
    });

    it('sslmode=verify-ca checks the chain only, as libpq does', async () => {
      expect(await connectsOverTls(urlOf('127.0.0.1', '?sslmode=verify-ca'), trusted.caFile)).toBe(true);
      await expect(connectsOverTls(urlOf('127.0.0.1', '?sslmode=verify-ca'), untrusted.caFile)).rejects.toThrow(
        /certificate/i,
      );
    });

    it('refuses a server whose certificate does not chain to the configured CA', async () => {
      await expect(connectsOverTls(urlOf('localhost', '?sslmode=verify-full'), untrusted.caFile)).rejects.toThrow(
        /certificate/i,
      );
      // verify-full without a CA falls back to the system roots, which do not know the test CA.
      await expect(connectsOverTls(urlOf('localhost', '?sslmode=verify-full'))).rejects.toThrow(/certificate/i);
    });

    it('a service started from its config (DATABASE_URL + DATABASE_CA_FILE) connects and migrates verified', async () => {
      const folder = join(dir, 'migrations');
      mkdirSync(join(folder, 'meta'), { recursive: true });
      writeFileSync(join(folder, '0000_init.sql'), 'CREATE TABLE "tls_things" ("id" integer PRIMARY KEY);');
      writeFileSync(
        join(folder, 'meta', '_journal.json'),
        JSON.stringify({
          version: '7',
          dialect: 'postgresql',
          entries: [{ idx: 0, version: '7', when: 1700000000000, tag: '0000_init', breakpoints: true }],
        }),
      );
      await expect(
        migratePostgresUrl(urlOf('localhost', '?sslmode=verify-full'), {
          service: 'kit-tls',
          migrationsFolder: folder,
          caFile: untrusted.caFile,
        }),
      ).rejects.toThrow(/certificate/i);
      const config = {
        NODE_ENV: 'production',
        PORT: 0,
        HOST: '127.0.0.1',
        DATA_DIR: dir,
        MIGRATE_ON_START: true,
        DB_POOL_SIZE: 2,
        DB_CONNECT_TIMEOUT_SECONDS: 5,
        DATABASE_URL: urlOf('localhost', '?sslmode=verify-full'),
        DATABASE_CA_FILE: trusted.caFile,
      };
      const database = await openServiceDatabase({
        service: 'kit-tls',
        config,
        schema: {},
        migrationsFolder: folder,
        logger: silentLogger(),
      });
      try {
        const rows = (await database.db.execute(
          'select count(*)::int as n from tls_things' as never,
        )) as unknown as Array<{ n: number }>;
        expect(rows[0]?.n).toBe(0);
      } finally {
        await database.close();
      }
    });
  },
);

describe('DATABASE_URL TLS configuration', () => {
  const schema = Type.Object(commonConfigProperties(3000));
  const load = (env: Record<string, string>) => loadConfig(schema, env, [databaseTlsConfigRule]);

  it('refuses sslmode=require (or prefer) without a CA in production, with one line', () => {
    for (const mode of ['require', 'prefer']) {
      let error: unknown;
      try {
        load({ NODE_ENV: 'production', DATABASE_URL: `postgres://u:secret@db.internal:5432/x?sslmode=${mode}` });
      } catch (caught) {
        error = caught;
      }
      expect(error).toBeInstanceOf(ConfigError);
      expect((error as ConfigError).problems).toEqual([
        `DATABASE_URL: sslmode=${mode} does not verify the server; set DATABASE_CA_FILE (full verification) or use sslmode=verify-full in production`,
      ]);
      expect((error as ConfigError).message).not.toContain('secret');
    }
  });

  it('accepts verified settings in production and sslmode=require in development', () => {
    expect(() =>
      load({
        NODE_ENV: 'production',
        DATABASE_URL: 'postgres://u@db.internal/x?sslmode=require',
        DATABASE_CA_FILE: '/etc/tessera/postgres-ca/ca.crt',
      }),
    ).not.toThrow();
    expect(() =>
      load({ NODE_ENV: 'production', DATABASE_URL: 'postgres://u@db.internal/x?sslmode=verify-full' }),
    ).not.toThrow();
    expect(() =>
      load({ NODE_ENV: 'development', DATABASE_URL: 'postgres://u@db.internal/x?sslmode=require' }),
    ).not.toThrow();
  });

  it('refuses a CA with sslmode=disable or with several hosts', () => {
    expect(() =>
      load({
        NODE_ENV: 'production',
        DATABASE_URL: 'postgres://u@db.internal/x?sslmode=disable',
        DATABASE_CA_FILE: '/ca.crt',
      }),
    ).toThrow(/sslmode=disable/);
    expect(() =>
      load({ NODE_ENV: 'production', DATABASE_URL: 'postgres://u@a:5432,b:5432/x', DATABASE_CA_FILE: '/ca.crt' }),
    ).toThrow(/single host/);
  });
});
