import { createHash } from 'node:crypto';
import { migrate as migratePostgres } from 'drizzle-orm/postgres-js/migrator';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import { drizzle as drizzlePostgres } from 'drizzle-orm/postgres-js';
import type { PgliteDatabase } from 'drizzle-orm/pglite';
import postgres from 'postgres';
import type { Database } from './database.js';
import { postgresSslOptions } from './postgres-tls.js';

export interface MigrateOptions {
  /** Service name: keys the advisory lock and names the migrations table. */
  service: string;
  /** Folder of the service's committed drizzle-kit SQL migrations. */
  migrationsFolder: string;
  /** DATABASE_CA_FILE, verified as the service's own connection is (`postgresSslOptions`). */
  caFile?: string;
}

/** The advisory lock key of a service: stable across processes and versions. */
export function migrationLockKey(service: string): bigint {
  return createHash('sha256').update(`tessera:migrate:${service}`).digest().readBigInt64BE(0);
}

/** Where drizzle records a service's applied migrations (schema `drizzle`, one table per service). */
export const MIGRATIONS_SCHEMA = 'drizzle';
export function migrationsTableOf(service: string): string {
  return `__migrations_${service.replace(/[^a-z0-9]/gi, '_')}`;
}

function migrationConfig(options: MigrateOptions) {
  return {
    migrationsFolder: options.migrationsFolder,
    migrationsSchema: MIGRATIONS_SCHEMA,
    migrationsTable: migrationsTableOf(options.service),
  };
}

/**
 * Applies the service's migrations to a Postgres server under a session advisory
 * lock held on one dedicated connection, so replicas starting together take turns
 * and the later ones find nothing left to do.
 */
export async function migratePostgresUrl(url: string, options: MigrateOptions): Promise<void> {
  const ssl = postgresSslOptions(url, options.caFile);
  const client = postgres(url, { max: 1, onnotice: () => {}, connect_timeout: 10, ...(ssl ? { ssl } : {}) });
  try {
    const key = migrationLockKey(options.service).toString();
    await client`select pg_advisory_lock(${key}::bigint)`;
    try {
      await migratePostgres(drizzlePostgres(client), migrationConfig(options));
    } finally {
      await client`select pg_advisory_unlock(${key}::bigint)`;
    }
  } finally {
    await client.end({ timeout: 5 });
  }
}

/** Applies migrations to an open database (PGlite is one process: no lock needed). */
export async function migrateDatabase<T extends Record<string, unknown>>(
  database: Database<T>,
  options: MigrateOptions & { url?: string },
): Promise<void> {
  if (database.kind === 'pglite') {
    await migratePglite(database.db as unknown as PgliteDatabase<T>, migrationConfig(options));
    return;
  }
  if (!options.url) throw new Error('migrateDatabase needs the url of a postgres database');
  await migratePostgresUrl(options.url, options);
}
