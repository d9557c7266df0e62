import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Type } from 'typebox';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError, commonConfigProperties, databaseTlsConfigRule, loadConfig, migratePostgresUrl, openDatabase, openServiceDatabase } from '../src/index.js';
import { missingServerBinary, silentLogger, startPrivatePostgres, writeTestTlsFiles, type PrivateServer, type TestTlsFiles } from '../src/testing/index.js';

/*
 * Verified TLS to PostgreSQL (issue 17 item 4), against a real server: a PostgreSQL started
 * for this file with a certificate for "localhost" from a CA made for the run, so the same
 * test runs in CI (TEST_PG_BIN) and on a developer machine.
 */

/** Opens a pool on `url` and reports whether a query over TLS went through (and the session was TLS). */
async function connectsOverTls(url: string, caFile?: string): Promise<boolean> {
  const database = await openDatabase({ schema: {}, url, connectTimeoutSeconds: 5, ...(caFile ? { caFile } : {}) });
  try {
    // The driver's own query first: its error is the TLS one, unwrapped by Drizzle.
    await database.ping();
    const rows = (await database.db.execute('select ssl from pg_stat_ssl where pid = pg_backend_pid()' as never)) as unknown as Array<{ ssl: boolean }>;
    return rows[0]?.ssl === true;
  } finally {
    await database.close();
  }
}

describe.skipIf(missingServerBinary('postgres', 'PostgreSQL TLS'))('PostgreSQL over verified TLS', () => {
  let dir: string;
  let trusted: TestTlsFiles;
  let untrusted: TestTlsFiles;
  let server: PrivateServer;
  let port: string;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'kit-pg-tls-'));
    trusted = await writeTestTlsFiles(dir, { hosts: ['localhost'] });
    // Same host name, another CA: what a man in the middle would present.
    untrusted = await writeTestTlsFiles(dir, { hosts: ['localhost'], prefix: 'other-' });
    const started = await startPrivatePostgres({ tls: trusted });
    if (!started) throw new Error('PostgreSQL binaries were found but the TLS server did not start');
    server = started;
    port = new URL(server.url).port;
  }, 60_000);

  afterAll(async () => {
    await server?.destroy();
    rmSync(dir, { recursive: true, force: true });
  });

  it('connects with full verification when DATABASE_CA_FILE is the server CA', async () => {
    expect(await connectsOverTls(`postgres://postgres@localhost:${port}/postgres?sslmode=verify-full`, trusted.caFile)).toBe(true);
    // DATABASE_CA_FILE alone means full verification, whatever sslmode says.
    expect(await connectsOverTls(`postgres://postgres@localhost:${port}/postgres`, trusted.caFile)).toBe(true);
  });

  it('refuses a server certificate for another host name', async () => {
    // The certificate names "localhost"; the URL names 127.0.0.1.
    await expect(connectsOverTls(`postgres://postgres@127.0.0.1:${port}/postgres?sslmode=verify-full`, trusted.caFile)).rejects.toThrow(/altnames|does not match|IP: 127\.0\.0\.1/i);
    await expect(connectsOverTls(`postgres://postgres@127.0.0.1:${port}/postgres`, trusted.caFile)).rejects.toThrow(/altnames|does not match/i);
  });

  it('sslmode=verify-ca checks the chain only, as libpq does', async () => {
    expect(await connectsOverTls(`postgres://postgres@127.0.0.1:${port}/postgres?sslmode=verify-ca`, trusted.caFile)).toBe(true);
    await expect(connectsOverTls(`postgres://postgres@127.0.0.1:${port}/postgres?sslmode=verify-ca`, untrusted.caFile)).rejects.toThrow(/certificate/i);
  });

  it('refuses a server whose certificate does not chain to the configured CA', async () => {
    await expect(connectsOverTls(`postgres://postgres@localhost:${port}/postgres?sslmode=verify-full`, untrusted.caFile)).rejects.toThrow(/certificate/i);
    // verify-full without a CA falls back to the system roots, which do not know the test CA.
    await expect(connectsOverTls(`postgres://postgres@localhost:${port}/postgres?sslmode=verify-full`)).rejects.toThrow(/certificate/i);
  });

  it('a service started from its config (DATABASE_URL + DATABASE_CA_FILE) connects and migrates verified', async () => {
    const folder = join(dir, 'migrations');
    mkdirSync(join(folder, 'meta'), { recursive: true });
    writeFileSync(join(folder, '0000_init.sql'), 'CREATE TABLE "tls_things" ("id" integer PRIMARY KEY);');
    writeFileSync(join(folder, 'meta', '_journal.json'), JSON.stringify({ version: '7', dialect: 'postgresql', entries: [{ idx: 0, version: '7', when: 1700000000000, tag: '0000_init', breakpoints: true }] }));
    await expect(migratePostgresUrl(`postgres://postgres@localhost:${port}/postgres?sslmode=verify-full`, { service: 'kit-tls', migrationsFolder: folder, caFile: untrusted.caFile })).rejects.toThrow(/certificate/i);
    const config = {
      NODE_ENV: 'production', PORT: 0, HOST: '127.0.0.1', DATA_DIR: dir, MIGRATE_ON_START: true, DB_POOL_SIZE: 2, DB_CONNECT_TIMEOUT_SECONDS: 5,
      DATABASE_URL: `postgres://postgres@localhost:${port}/postgres?sslmode=verify-full`,
      DATABASE_CA_FILE: trusted.caFile,
    };
    const database = await openServiceDatabase({ service: 'kit-tls', config, schema: {}, migrationsFolder: folder, logger: silentLogger() });
    try {
      const rows = (await database.db.execute('select count(*)::int as n from tls_things' as never)) as unknown as Array<{ n: number }>;
      expect(rows[0]?.n).toBe(0);
    } finally {
      await database.close();
    }
  });
});

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
      expect((error as ConfigError).problems).toEqual([`DATABASE_URL: sslmode=${mode} does not verify the server; set DATABASE_CA_FILE (full verification) or use sslmode=verify-full in production`]);
      expect((error as ConfigError).message).not.toContain('secret');
    }
  });

  it('accepts verified settings in production and sslmode=require in development', () => {
    expect(() => load({ NODE_ENV: 'production', DATABASE_URL: 'postgres://u@db.internal/x?sslmode=require', DATABASE_CA_FILE: '/etc/tessera/postgres-ca/ca.crt' })).not.toThrow();
    expect(() => load({ NODE_ENV: 'production', DATABASE_URL: 'postgres://u@db.internal/x?sslmode=verify-full' })).not.toThrow();
    expect(() => load({ NODE_ENV: 'development', DATABASE_URL: 'postgres://u@db.internal/x?sslmode=require' })).not.toThrow();
  });

  it('refuses a CA with sslmode=disable or with several hosts', () => {
    expect(() => load({ NODE_ENV: 'production', DATABASE_URL: 'postgres://u@db.internal/x?sslmode=disable', DATABASE_CA_FILE: '/ca.crt' })).toThrow(/sslmode=disable/);
    expect(() => load({ NODE_ENV: 'production', DATABASE_URL: 'postgres://u@a:5432,b:5432/x', DATABASE_CA_FILE: '/ca.crt' })).toThrow(/single host/);
  });
});
