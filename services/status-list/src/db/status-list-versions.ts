// Queries of the history (status_list_versions): the tokens lists held before their
// current one. A version is written by the update that replaces it (status-lists.ts,
// replaceStatusListToken) and deleted by the prune job. Not tenant-scoped, as lists are not.
import { and, asc, count, desc, eq, gt, inArray, isNull, lt, lte, or, sql } from 'drizzle-orm';
import { rowsOf } from '@tessera/service-kit';
import { statusListVersions } from './schema.js';
import type { StatusListDb } from './types.js';

export type StatusListVersionRow = typeof statusListVersions.$inferSelect;

/**
 * The newest kept version of a list that was valid at `time` (seconds): issued at or
 * before it and, when it has `exp`, expiring after it; ties on `iat` go to the later write.
 */
export async function findVersionValidAt(
  db: StatusListDb,
  listId: string,
  time: number,
): Promise<StatusListVersionRow | undefined> {
  const [row] = await db
    .select()
    .from(statusListVersions)
    .where(
      and(
        eq(statusListVersions.listId, listId),
        lte(statusListVersions.iat, time),
        or(isNull(statusListVersions.exp), gt(statusListVersions.exp, time)),
      ),
    )
    .orderBy(desc(statusListVersions.iat), desc(statusListVersions.id))
    .limit(1);
  return row;
}

/** A page of a list's kept versions, the most recently replaced first (their write order). */
export async function listVersions(
  db: StatusListDb,
  listId: string,
  page: { offset: number; limit: number },
): Promise<StatusListVersionRow[]> {
  if (page.limit <= 0) return [];
  return db
    .select()
    .from(statusListVersions)
    .where(eq(statusListVersions.listId, listId))
    .orderBy(desc(statusListVersions.id))
    .offset(page.offset)
    .limit(page.limit);
}

/** How many versions of a list are kept. */
export async function countVersions(db: StatusListDb, listId: string): Promise<number> {
  const [row] = await db
    .select({ total: count() })
    .from(statusListVersions)
    .where(eq(statusListVersions.listId, listId));
  return row?.total ?? 0;
}

/**
 * Key of the transaction-level advisory lock that makes one replica at a time the
 * history pruner: it cannot outlive the batch that took it, and a replica that dies
 * mid-batch releases it with its connection (the batch rolls back).
 */
export const HISTORY_PRUNE_LOCK_KEY = 1_550_015_101;

/** True when this transaction now holds the prune lock; false when another replica's batch does. */
export async function tryLockHistoryPrune(tx: StatusListDb): Promise<boolean> {
  const [row] = rowsOf<{ locked: boolean }>(
    await tx.execute(sql`select pg_try_advisory_xact_lock(${HISTORY_PRUNE_LOCK_KEY}::bigint) as locked`),
  );
  return row?.locked === true;
}

/** Deletes at most `limit` versions replaced before `before`, oldest first; answers how many. */
export async function deleteVersionsSupersededBefore(
  tx: StatusListDb,
  params: { before: Date; limit: number },
): Promise<number> {
  const due = tx
    .select({ id: statusListVersions.id })
    .from(statusListVersions)
    .where(lt(statusListVersions.supersededAt, params.before))
    .orderBy(asc(statusListVersions.supersededAt))
    .limit(params.limit);
  const deleted = await tx
    .delete(statusListVersions)
    .where(inArray(statusListVersions.id, due))
    .returning({ id: statusListVersions.id });
  return deleted.length;
}
