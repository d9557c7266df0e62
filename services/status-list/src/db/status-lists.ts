// Queries of the status_lists table. Lists are not tenant-scoped: the API key is
// the service's single write credential and reads are public by design.
import { eq, gt, sql } from 'drizzle-orm';
import type { DbOrTx } from '@tessera/service-kit';
import { statusLists, type StatusListDbSchema, type StatusListRow } from './schema.js';

type Db = DbOrTx<StatusListDbSchema>;

export interface NewStatusList {
  id: string;
  jwt: string;
  bits: number;
  sub: string;
  iat: number;
  exp?: number;
  ttl?: number;
  etag: string;
}

/** Inserts a list; resolves undefined when the id exists already. */
export async function insertStatusList(db: Db, list: NewStatusList): Promise<StatusListRow | undefined> {
  const [row] = await db
    .insert(statusLists)
    .values({ ...list, exp: list.exp ?? null, ttl: list.ttl ?? null })
    .onConflictDoNothing({ target: statusLists.id })
    .returning();
  return row;
}

export async function findStatusList(db: Db, id: string): Promise<StatusListRow | undefined> {
  const [row] = await db.select().from(statusLists).where(eq(statusLists.id, id)).limit(1);
  return row;
}

/** Reads a list and locks its row until the transaction ends: concurrent PATCHes take turns. */
export async function findStatusListForUpdate(tx: Db, id: string): Promise<StatusListRow | undefined> {
  const [row] = await tx.select().from(statusLists).where(eq(statusLists.id, id)).limit(1).for('update');
  return row;
}

export interface StatusListUpdate {
  jwt: string;
  iat: number;
  exp?: number;
  ttl?: number;
  etag: string;
}

export async function updateStatusList(tx: Db, id: string, update: StatusListUpdate): Promise<StatusListRow> {
  const [row] = await tx
    .update(statusLists)
    .set({ jwt: update.jwt, iat: update.iat, exp: update.exp ?? null, ttl: update.ttl ?? null, etag: update.etag, updatedAt: sql`now()` })
    .where(eq(statusLists.id, id))
    .returning();
  return row!;
}

/**
 * Lists written within the last `windowSeconds` (database clock). The window must
 * exceed the longest write transaction, so a write that commits late is still seen
 * by the next poll.
 */
export async function listRecentChanges(db: Db, windowSeconds: number): Promise<Array<{ id: string; etag: string }>> {
  return db
    .select({ id: statusLists.id, etag: statusLists.etag })
    .from(statusLists)
    .where(gt(statusLists.updatedAt, sql`now() - make_interval(secs => ${windowSeconds})`));
}
