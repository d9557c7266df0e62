import { sql } from 'drizzle-orm';
import { bigint, index, integer, pgSchema, smallint, text, timestamp, uuid } from 'drizzle-orm/pg-core';

/** The service's own Postgres schema: it can share a database with the other services. */
export const statusListSchema = pgSchema('status_list');

/**
 * One issuer-signed status list token. `jwt` is stored byte for byte as POSTed;
 * `bits` and `sub` are fixed at creation; `etag` is a strong hash of `jwt`.
 */
export const statusLists = statusListSchema.table(
  'status_lists',
  {
    id: uuid('id').primaryKey(),
    jwt: text('jwt').notNull(),
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
  (table) => [index('status_lists_written_txid_idx').on(table.writtenTxid)],
);

export type StatusListRow = typeof statusLists.$inferSelect;

export const schema = { statusLists };
export type StatusListDbSchema = typeof schema;
