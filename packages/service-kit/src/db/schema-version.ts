import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import { readMigrationFiles } from 'drizzle-orm/migrator';
import type { Database } from './database.js';
import { MIGRATIONS_SCHEMA, migrationsTableOf, type MigrateOptions } from './migrate.js';
import { rowsOf } from './rows-of.js';

/** A migration of the code's journal: drizzle-kit's tag, its `when` and the hash drizzle records. */
export interface JournalMigration {
  tag: string;
  when: number;
  hash: string;
}

/** A row of drizzle's migrations table. */
export interface AppliedMigration {
  hash: string;
  createdAt: number;
}

/**
 * How the database's schema stands against the code: `behind` while migrations of the
 * code's journal have not run (the code must not serve), `ahead` when the database has
 * migrations this code does not know (an older version during a rollback), else `current`.
 */
export interface SchemaVersion {
  state: 'current' | 'behind' | 'ahead';
  /** Migrations recorded in the database. */
  applied: number;
  /** Migrations in the code's journal. */
  expected: number;
  /** The tag of the newest journal migration the database has, if any. */
  lastApplied?: string;
  /** Tags of the journal migrations still to run (`behind`). */
  pending: string[];
  /** Migrations recorded in the database that are newer than this code's newest (`ahead`). */
  unknown: number;
}

/** The code's migrations, as drizzle's migrator reads and hashes them (same files, same hashes). */
export function readJournalMigrations(migrationsFolder: string): JournalMigration[] {
  const journal = JSON.parse(readFileSync(join(migrationsFolder, 'meta', '_journal.json'), 'utf8')) as {
    entries: Array<{ tag: string }>;
  };
  return readMigrationFiles({ migrationsFolder }).map((migration, index) => ({
    tag: journal.entries[index]!.tag,
    when: migration.folderMillis,
    hash: migration.hash,
  }));
}

/**
 * Compares with drizzle's own rule: it runs the journal migrations whose `when` is after
 * the newest one recorded, so exactly those are pending.
 */
export function compareSchemaVersion(journal: JournalMigration[], applied: AppliedMigration[]): SchemaVersion {
  const newestApplied = Math.max(-Infinity, ...applied.map((migration) => migration.createdAt));
  const newestKnown = Math.max(-Infinity, ...journal.map((migration) => migration.when));
  const pending = journal.filter((migration) => migration.when > newestApplied).map((migration) => migration.tag);
  const unknown = applied.filter((migration) => migration.createdAt > newestKnown).length;
  const lastApplied = [...journal].reverse().find((migration) => migration.when <= newestApplied)?.tag;
  return {
    state: pending.length > 0 ? 'behind' : unknown > 0 ? 'ahead' : 'current',
    applied: applied.length,
    expected: journal.length,
    ...(lastApplied ? { lastApplied } : {}),
    pending,
    unknown,
  };
}

/** Reads drizzle's migrations table of the service (absent: nothing applied) and compares it with the code's journal. */
export async function readSchemaVersion(
  database: Database<Record<string, unknown>>,
  options: MigrateOptions,
): Promise<SchemaVersion> {
  const table = `${MIGRATIONS_SCHEMA}.${migrationsTableOf(options.service)}`;
  const [exists] = rowsOf<{ present: boolean }>(
    await database.db.execute(sql`select to_regclass(${table}) is not null as present`),
  );
  const applied = exists?.present
    ? rowsOf<{ hash: string; created_at: string | number }>(
        await database.db.execute(sql.raw(`select hash, created_at from ${table}`)),
      ).map((row) => ({ hash: row.hash, createdAt: Number(row.created_at) }))
    : [];
  return compareSchemaVersion(readJournalMigrations(options.migrationsFolder), applied);
}

/** One line for the log: applied against expected, and what is missing or unknown. */
export function describeSchemaVersion(service: string, version: SchemaVersion): string {
  const counts = `${version.applied} of ${version.expected} migrations applied (last applied: ${version.lastApplied ?? 'none'})`;
  if (version.state === 'behind') {
    return `${service}: database schema is behind this version: ${counts}, expected up to ${version.pending.at(-1)} (pending: ${version.pending.join(', ')}); not ready until the migrations have run (node dist/migrate.js)`;
  }
  if (version.state === 'ahead') {
    return `${service}: database schema is ahead of this version: ${version.unknown} migration(s) newer than this code knows (a rollback?); serving, as migrations keep the previous version working`;
  }
  return `${service}: database schema is current: ${counts}`;
}
