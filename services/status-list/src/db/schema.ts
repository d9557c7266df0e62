import { sql } from 'drizzle-orm';
import {
  bigint,
  check,
  customType,
  index,
  integer,
  pgSchema,
  smallint,
  text,
  timestamp,
  uuid,
} from 'drizzle-orm/pg-core';

/** The service's own Postgres schema: it can share a database with the other services. */
export const statusListSchema = pgSchema('status_list');

/**
 * Raw bytes (a CWT). postgres-js reads bytea as a Buffer, PGlite as a Uint8Array:
 * both come out as a Buffer over the same memory.
 */
const bytea = customType<{ data: Buffer; driverData: Uint8Array }>({
  dataType: () => 'bytea',
  fromDriver: (value) =>
    Buffer.isBuffer(value) ? value : Buffer.from(value.buffer, value.byteOffset, value.byteLength),
});

/**
 * One issuer-signed status list token, in the form it was created in: `jwt` (the
 * compact JWS, byte for byte as POSTed) or `cwt` (the COSE_Sign1 bytes), never both.
 * `bits` and `sub` are fixed at creation; `etag` is a strong hash of the token's bytes.
 */
export const statusLists = statusListSchema.table(
  'status_lists',
  {
    id: uuid('id').primaryKey(),
    jwt: text('jwt'),
    cwt: bytea('cwt'),
    bits: smallint('bits').notNull(),
    sub: text('sub').notNull(),
    iat: bigint('iat', { mode: 'number' }).notNull(),
    exp: bigint('exp', { mode: 'number' }),
    ttl: integer('ttl'),
    etag: text('etag').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
    /** Id of the transaction that last wrote the row: the cache sync asks for rows written since a snapshot. */
    writtenTxid: bigint('written_txid', { mode: 'number' })
      .notNull()
      .default(sql`(pg_current_xact_id()::text::bigint)`),
  },
  (table) => [
    index('status_lists_written_txid_idx').on(table.writtenTxid),
    check('status_lists_one_form', sql`(jwt is null) <> (cwt is null)`),
  ],
);

export type StatusListRow = typeof statusLists.$inferSelect;

/**
 * History: every token a list held before its current one (the current token is the
 * list's row), kept STATUS_LIST_HISTORY_DAYS after it was replaced. A write archives the
 * token it replaces in the same statement; the prune job deletes versions replaced
 * longer ago than that. `written_at` is when the version became current,
 * `superseded_at` when a newer token replaced it.
 */
export const statusListVersions = statusListSchema.table(
  'status_list_versions',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    listId: uuid('list_id')
      .notNull()
      .references(() => statusLists.id, { onDelete: 'cascade' }),
    jwt: text('jwt'),
    cwt: bytea('cwt'),
    etag: text('etag').notNull(),
    iat: bigint('iat', { mode: 'number' }).notNull(),
    exp: bigint('exp', { mode: 'number' }),
    ttl: integer('ttl'),
    writtenAt: timestamp('written_at', { withTimezone: true, mode: 'date' }).notNull(),
    supersededAt: timestamp('superseded_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  (table) => [
    // `?time=`: the newest version of a list issued at or before a time.
    index('status_list_versions_list_iat_idx').on(table.listId, table.iat),
    // The prune job: versions replaced before a cutoff, oldest first.
    index('status_list_versions_superseded_at_idx').on(table.supersededAt),
    check('status_list_versions_one_form', sql`(jwt is null) <> (cwt is null)`),
  ],
);

export const schema = { statusLists, statusListVersions };
export type StatusListDbSchema = typeof schema;
