// Named fixtures over the status_lists table, for what a test cannot arrange or observe
// through the service's own operations. Everything else goes through the API or the use cases.
import { asc, eq, sql } from 'drizzle-orm';
import type { Database } from '@tessera/service-kit';
import { waitFor, type TestDatabase } from '@tessera/service-kit/testing';
import { statusListVersions, statusLists, type StatusListDbSchema, type StatusListRow } from '../../src/db/schema.js';
import { HISTORY_PRUNE_LOCK_KEY, type StatusListVersionRow } from '../../src/db/status-list-versions.js';
import { replaceStatusListToken } from '../../src/db/status-lists.js';

/** Every stored list, by id: what the store holds (a refused write must leave it as it was). */
export function storedStatusLists(database: Database<StatusListDbSchema>): Promise<StatusListRow[]> {
  return database.db.select().from(statusLists).orderBy(asc(statusLists.id));
}

/** A write that has run but not committed; `commit` lets it commit and waits for that. */
export interface UncommittedWrite {
  commit(): Promise<void>;
}

/**
 * Replaces list `id`'s token in a transaction on a connection of its own and holds the
 * transaction open once the write has run (it has its transaction id): a write that
 * commits late, as a slow replica's would.
 */
export async function startUncommittedWrite(
  testDb: TestDatabase<StatusListDbSchema>,
  id: string,
  token: { jwt: string; iat: number; etag: string },
): Promise<UncommittedWrite> {
  const connection = await testDb.openAnother();
  let release: (() => void) | undefined;
  const write = connection.db.transaction(async (tx) => {
    await replaceStatusListToken(tx, id, { ...token, at: new Date() });
    await new Promise<void>((resolve) => (release = resolve));
  });
  // A fixed pause was not always long enough on a loaded machine, and commit() then did nothing.
  await waitFor(async () => release !== undefined, 10000, 'the uncommitted write to run');
  return {
    commit: async () => {
      release!();
      await write;
      await connection.close();
    },
  };
}

/** The versions kept of list `id` (its history, without its current token), oldest first. */
export async function storedVersions(
  database: Database<StatusListDbSchema>,
  id: string,
): Promise<StatusListVersionRow[]> {
  return database.db
    .select()
    .from(statusListVersions)
    .where(eq(statusListVersions.listId, id))
    .orderBy(asc(statusListVersions.id));
}

/** Every kept version of every list. */
export function allStoredVersions(database: Database<StatusListDbSchema>): Promise<StatusListVersionRow[]> {
  return database.db.select().from(statusListVersions).orderBy(asc(statusListVersions.id));
}

/**
 * `count` lists stored in one statement, each named `{base}/status-lists/{id}`: what
 * the aggregation lists, at a scale the API would take minutes to reach. Their token
 * is a placeholder (the aggregation reads only the URIs).
 */
export async function seedStatusLists(
  database: Database<StatusListDbSchema>,
  count: number,
  base: string,
): Promise<void> {
  await database.db.execute(sql`
    insert into ${statusLists} (id, jwt, bits, sub, iat, etag)
    select g.id, 'seeded.list.token', 1, ${`${base}/status-lists/`} || g.id, 1, '"seeded"'
    from (select gen_random_uuid() as id from generate_series(1, ${count})) as g`);
}

/** The URI (`sub`) of every list, oldest first (ties by id): what the aggregation must say. */
export async function storedListUris(database: Database<StatusListDbSchema>): Promise<string[]> {
  const rows = await database.db
    .select({ sub: statusLists.sub })
    .from(statusLists)
    .orderBy(asc(statusLists.createdAt), asc(statusLists.id));
  return rows.map((row) => row.sub);
}

/**
 * Holds the history prune's advisory lock in a transaction on a connection of its own,
 * as another replica's prune batch would, until `release`.
 */
export async function holdHistoryPruneLock(
  testDb: TestDatabase<StatusListDbSchema>,
): Promise<{ release(): Promise<void> }> {
  const connection = await testDb.openAnother();
  let release: (() => void) | undefined;
  const held = connection.db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(${HISTORY_PRUNE_LOCK_KEY}::bigint)`);
    await new Promise<void>((resolve) => (release = resolve));
  });
  await waitFor(async () => release !== undefined, 10000, 'the other replica to take the prune lock');
  return {
    release: async () => {
      release!();
      await held;
      await connection.close();
    },
  };
}
