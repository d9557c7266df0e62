import { randomBytes } from 'node:crypto';
import { Writable } from 'node:stream';
import postgres from 'postgres';
import { inject } from 'vitest';
import { openDatabase, type Database } from '../db/database.js';
import { migrateDatabase } from '../db/migrate.js';
import { InProcessBus, InProcessHub } from '../bus/in-process-bus.js';
import { NatsBus } from '../bus/nats-bus.js';
import type { MessageBus } from '../bus/message-bus.js';
import { createLogger, type Logger } from '../logger.js';
import type { TestBackendInfo } from './backends.js';

export { freePort, startTestBackends, describeBackends, startPrivatePostgres, startPrivateNats, type TestBackendInfo, type PrivateServer } from './backends.js';

/** The backends the global setup found (see `global-setup.ts`). */
export function testBackends(): TestBackendInfo {
  return inject('tesseraBackends');
}

/** True when tests run against a PostgreSQL server (not the embedded PGlite). */
export function hasServerPostgres(): boolean {
  return !!testBackends().postgres.adminUrl;
}

/** True when tests run against a NATS server (not the in-process transport). */
export function hasNatsServer(): boolean {
  return !!testBackends().nats.url;
}

const warned = new Set<string>();
/**
 * For `describe.skipIf(...)`: true (skip) when the named server is missing, with a
 * one-line warning. The only skips the project allows (ARCHITECTURE.md, Testing).
 */
export function missingServer(what: 'postgres' | 'nats', suite: string): boolean {
  const missing = what === 'postgres' ? !hasServerPostgres() : !hasNatsServer();
  if (missing && !warned.has(suite)) {
    warned.add(suite);
    process.stderr.write(`[tessera] skipping "${suite}": needs a ${what === 'postgres' ? 'PostgreSQL' : 'NATS'} server, none found\n`);
  }
  return missing;
}

export interface TestDatabase<TSchema extends Record<string, unknown>> {
  database: Database<TSchema>;
  /** URL of the fresh database (server PostgreSQL only). */
  url?: string;
  /** Opens another pool on the same database, e.g. for a second app instance. */
  openAnother(): Promise<Database<TSchema>>;
  drop(): Promise<void>;
}

export interface CreateTestDatabaseOptions<TSchema extends Record<string, unknown>> {
  schema: TSchema;
  service: string;
  migrationsFolder: string;
}

/** A fresh, migrated database for one test file: a new database on the server, or an in-memory PGlite. */
export async function createTestDatabase<TSchema extends Record<string, unknown>>(
  options: CreateTestDatabaseOptions<TSchema>,
): Promise<TestDatabase<TSchema>> {
  const adminUrl = testBackends().postgres.adminUrl;
  if (!adminUrl) {
    const database = await openDatabase({ schema: options.schema });
    await migrateDatabase(database, options);
    return {
      database,
      openAnother: () => Promise.reject(new Error('a second connection needs a PostgreSQL server')),
      drop: () => database.close(),
    };
  }
  const name = `t_${options.service.replace(/\W/g, '_')}_${randomBytes(6).toString('hex')}`;
  const admin = postgres(adminUrl, { max: 1, onnotice: () => {} });
  await admin.unsafe(`create database "${name}"`);
  await admin.end();
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  const databaseUrl = url.toString();
  await migrateDatabase({ kind: 'postgres' } as Database<TSchema>, { ...options, url: databaseUrl });
  const opened: Array<Database<TSchema>> = [];
  const open = async () => {
    const db = await openDatabase({ schema: options.schema, url: databaseUrl, poolSize: 20 });
    opened.push(db);
    return db;
  };
  const database = await open();
  return {
    database,
    url: databaseUrl,
    openAnother: open,
    drop: async () => {
      for (const db of opened) await db.close().catch(() => {});
      const cleanup = postgres(adminUrl, { max: 1, onnotice: () => {} });
      await cleanup.unsafe(`drop database if exists "${name}" with (force)`).catch(() => {});
      await cleanup.end();
    },
  };
}

/**
 * A bus for a test: a NATS connection when a server is there, else an in-process
 * bus on `hub` (pass the same hub to buses that must reach each other).
 */
export async function connectTestBus(name: string, hub: InProcessHub = new InProcessHub(), logger?: Logger): Promise<MessageBus> {
  const url = testBackends().nats.url;
  if (!url) return new InProcessBus(hub);
  return NatsBus.connect({ url, name, logger: logger ?? createLogger({ name, level: 'silent' }) });
}

export { InProcessHub };

/** A logger whose lines are kept in memory, to assert what was (and was not) logged. */
export function captureLogger(name = 'test', level = 'trace'): { logger: Logger; lines: () => string[]; text: () => string } {
  const chunks: string[] = [];
  const destination = new Writable({
    write(chunk, _encoding, callback) {
      chunks.push(String(chunk));
      callback();
    },
  });
  const logger = createLogger({ name, level, destination });
  return {
    logger,
    lines: () => chunks.join('').split('\n').filter(Boolean),
    text: () => chunks.join(''),
  };
}

/** A logger that writes nothing, for tests that do not look at logs. */
export function silentLogger(name = 'test'): Logger {
  return createLogger({ name, level: 'silent' });
}

export { fuzzAllRoutes, fuzzRunsPerRoute, FUZZ_SEED, listRoutes, requestArbitrary, checkRequest, checkResponseHeaders, type FuzzRoute } from './fuzz/fuzz-routes.js';
export { snapshotSchema } from './fuzz/snapshot.js';
export { arbitraryFor, mutate } from './fuzz/schema-arbitrary.js';

/** Creates an empty database on the server at `adminUrl` and returns its URL. */
export async function createEmptyDatabase(adminUrl: string, name = `t_${randomBytes(6).toString('hex')}`): Promise<string> {
  const admin = postgres(adminUrl, { max: 1, onnotice: () => {} });
  try {
    await admin.unsafe(`create database "${name}"`);
  } finally {
    await admin.end();
  }
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

/**
 * Polls `check` until it resolves true; a check that throws counts as "not yet"
 * (a server still starting). Rejects after `timeoutMs`, naming `what`.
 */
export async function waitFor(check: () => Promise<boolean>, timeoutMs = 20000, what = 'condition'): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    try {
      if (await check()) return;
    } catch {
      // not yet
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`${what} not reached in ${timeoutMs} ms`);
}
