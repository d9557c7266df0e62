import { randomBytes } from 'node:crypto';
import postgres from 'postgres';
import { openDatabase, type Database } from '../db/database.js';
import { migrateDatabase } from '../db/migrate.js';
import { testBackends } from './available-servers.js';

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
  const databaseUrl = await createEmptyDatabase(adminUrl, name);
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

/** Creates an empty database on the server at `adminUrl` and returns its URL. */
export async function createEmptyDatabase(
  adminUrl: string,
  name = `t_${randomBytes(6).toString('hex')}`,
): Promise<string> {
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

/** An empty database on the test server (no migrations applied) and how to drop it: for tests of a migrate entry. */
export async function createEmptyTestDatabase(): Promise<{ url: string; drop(): Promise<void> }> {
  const adminUrl = testBackends().postgres.adminUrl;
  if (!adminUrl) throw new Error('an empty database needs a PostgreSQL server (see missingServer)');
  const name = `t_empty_${randomBytes(6).toString('hex')}`;
  const url = await createEmptyDatabase(adminUrl, name);
  return {
    url,
    drop: async () => {
      const cleanup = postgres(adminUrl, { max: 1, onnotice: () => {} });
      await cleanup.unsafe(`drop database if exists "${name}" with (force)`).catch(() => {});
      await cleanup.end();
    },
  };
}
