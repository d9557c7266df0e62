// Named fixtures over the status_lists table, for what a test cannot arrange or observe
// through the service's own operations. Everything else goes through the API or the use cases.
import { asc } from 'drizzle-orm';
import type { Database } from '@tessera/service-kit';
import { waitFor, type TestDatabase } from '@tessera/service-kit/testing';
import { statusLists, type StatusListDbSchema, type StatusListRow } from '../../src/db/schema.js';
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
