// Queries of the status_lists table. Lists are not tenant-scoped: the API key is
// the service's single write credential and reads are public by design.
import { eq, sql } from 'drizzle-orm';
import { statusListVersions, statusLists, type StatusListRow } from './schema.js';
import type { StatusListDb, StatusListTx } from './types.js';

/** A token in the form its list was created in: the JWT's text or the CWT's bytes. */
export type TokenColumns = { jwt: string; cwt?: undefined } | { cwt: Buffer; jwt?: undefined };

export type NewStatusList = TokenColumns & {
  id: string;
  bits: number;
  sub: string;
  iat: number;
  exp?: number;
  ttl?: number;
  etag: string;
  /** When it is created: its `createdAt` and `updatedAt`. */
  at: Date;
};

/** Inserts a list; resolves undefined when the id exists already. */
export async function insertStatusList(db: StatusListDb, list: NewStatusList): Promise<StatusListRow | undefined> {
  const { at, ...values } = list;
  const [row] = await db
    .insert(statusLists)
    .values({
      ...values,
      jwt: list.jwt ?? null,
      cwt: list.cwt ?? null,
      exp: list.exp ?? null,
      ttl: list.ttl ?? null,
      createdAt: at,
      updatedAt: at,
    })
    .onConflictDoNothing({ target: statusLists.id })
    .returning();
  return row;
}

export async function findStatusList(db: StatusListDb, id: string): Promise<StatusListRow | undefined> {
  const [row] = await db.select().from(statusLists).where(eq(statusLists.id, id)).limit(1);
  return row;
}

/** Reads a list and locks its row until the transaction ends: concurrent PATCHes take turns. */
export async function findStatusListForUpdate(tx: StatusListDb, id: string): Promise<StatusListRow | undefined> {
  const [row] = await tx.select().from(statusLists).where(eq(statusLists.id, id)).limit(1).for('update');
  return row;
}

export type StatusListUpdate = TokenColumns & {
  iat: number;
  exp?: number;
  ttl?: number;
  etag: string;
  /** When it is replaced: its new `updatedAt`, and when the token it replaces stopped being current. */
  at: Date;
};

export interface ReplaceOptions {
  /** Keep the token being replaced as a version (history), in the same statement. */
  archive?: boolean;
}

/**
 * Replaces the token of a list whose row exists (locked by `findStatusListForUpdate`).
 * With `archive`, the same statement copies the token it replaces into the history:
 * every part of a WITH statement sees the row as it was before the update.
 */
export async function replaceStatusListToken(
  tx: StatusListTx,
  id: string,
  update: StatusListUpdate,
  options: ReplaceOptions = {},
): Promise<StatusListRow> {
  // Reads the row as it was before this statement's update (one snapshot for the whole WITH).
  const archived = tx.$with('archived', {}).as(sql`
    insert into ${statusListVersions} (list_id, jwt, cwt, etag, iat, exp, ttl, written_at, superseded_at)
    select id, jwt, cwt, etag, iat, exp, ttl, updated_at, ${update.at.toISOString()}::timestamptz
    from ${statusLists} where id = ${id}`);
  const [row] = await (options.archive ? tx.with(archived) : tx)
    .update(statusLists)
    .set({
      jwt: update.jwt ?? null,
      cwt: update.cwt ?? null,
      iat: update.iat,
      exp: update.exp ?? null,
      ttl: update.ttl ?? null,
      etag: update.etag,
      updatedAt: update.at,
      writtenTxid: sql`pg_current_xact_id()::text::bigint`,
    })
    .where(eq(statusLists.id, id))
    .returning();
  return row!;
}

export interface ChangesSince {
  /**
   * The oldest transaction still running when this read's snapshot was taken: every
   * write that commits later has a transaction id at least this high.
   */
  watermark: number;
  changes: Array<{ id: string; etag: string }>;
}

/**
 * Lists written by transactions with ids at or above `since` (a previous watermark),
 * plus the new watermark, in one snapshot. Passing each watermark to the next call
 * sees every committed write exactly once or more, never zero times, however late a
 * transaction commits; with `since` undefined only the watermark is read.
 */
export async function listChangesSince(db: StatusListDb, since: number | undefined): Promise<ChangesSince> {
  const rows = (await db.execute(sql`
    with snapshot as (select pg_snapshot_xmin(pg_current_snapshot())::text::bigint as watermark)
    select snapshot.watermark, lists.id, lists.etag
    from snapshot
    left join ${statusLists} as lists on ${since === undefined ? sql`false` : sql`lists.written_txid >= ${since}`}
  `)) as unknown;
  const list = (Array.isArray(rows) ? rows : ((rows as { rows: unknown[] }).rows ?? [])) as Array<{
    watermark: string | number;
    id: string | null;
    etag: string | null;
  }>;
  return {
    watermark: Number(list[0]!.watermark),
    changes: list.filter((row) => row.id !== null).map((row) => ({ id: row.id!, etag: row.etag! })),
  };
}
