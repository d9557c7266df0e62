// Queries behind the Status List Aggregation: the URI (`sub`) of every list. Lists are
// never deleted and `sub` is fixed at creation, so the set changes only when a list is
// created, and the number of lists tells whether it has.
import { asc, count } from 'drizzle-orm';
import { statusLists } from './schema.js';
import type { StatusListDb } from './types.js';

/** The URI of every list, oldest first (ties by id), so new lists come last. */
export async function listStatusListUris(db: StatusListDb): Promise<string[]> {
  const rows = await db
    .select({ sub: statusLists.sub })
    .from(statusLists)
    .orderBy(asc(statusLists.createdAt), asc(statusLists.id));
  return rows.map((row) => row.sub);
}

/** How many lists exist: changes exactly when the aggregation does. */
export async function countStatusLists(db: StatusListDb): Promise<number> {
  const [row] = await db.select({ lists: count() }).from(statusLists);
  return row?.lists ?? 0;
}
