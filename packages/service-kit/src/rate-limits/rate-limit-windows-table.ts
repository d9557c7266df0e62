import { index, integer, text, timestamp, type PgSchema } from 'drizzle-orm/pg-core';
import { RATE_LIMIT_WINDOWS_TABLE } from './postgres-rate-limit-windows.js';

/**
 * The shared rate-limit counts' table in a service's own schema, as
 * `postgresRateLimitWindows` reads and writes it: declared once here, so every service's
 * migrations make the same table.
 */
export function rateLimitWindowsTable(schema: PgSchema) {
  return schema.table(
    RATE_LIMIT_WINDOWS_TABLE,
    {
      /** SHA-256 (base64url) of the route and the client key: no client address is stored. */
      key: text('key').primaryKey(),
      count: integer('count').notNull(),
      windowEndsAt: timestamp('window_ends_at', { withTimezone: true, mode: 'date' }).notNull(),
      /** When a replica last added to the window: the others read what changed since their last exchange. */
      updatedAt: timestamp('updated_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
    },
    (t) => [
      index('rate_limit_windows_ends_idx').on(t.windowEndsAt),
      index('rate_limit_windows_updated_idx').on(t.updatedAt),
    ],
  );
}
