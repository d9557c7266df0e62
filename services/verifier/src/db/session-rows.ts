// A presentation_sessions row as a raw statement answers it (snake_case names, driver
// values), decoded into the row Drizzle would answer.
import { getTableColumns } from 'drizzle-orm';
import { presentationSessions, type SessionRow } from './schema.js';

/** The session columns by property name, listed once (every create writes a row, every wallet request and read decodes one). */
export const SESSION_COLUMN_ENTRIES = Object.entries(getTableColumns(presentationSessions));
/** The session's jsonb columns, by property name. */
export const SESSION_JSON_KEYS = new Set(
  SESSION_COLUMN_ENTRIES.filter(([, column]) => column.getSQLType() === 'jsonb').map(([key]) => key),
);

/**
 * A `presentation_sessions` row as a raw statement answers it (snake_case names,
 * driver values) → the row Drizzle would answer, through each column's own decoding.
 */
export function decodeSessionRow(raw: Record<string, unknown>): SessionRow {
  const row: Record<string, unknown> = {};
  for (const [key, column] of SESSION_COLUMN_ENTRIES) {
    const value = raw[column.name];
    row[key] = value === null || value === undefined ? null : column.mapFromDriverValue(value);
  }
  return row as SessionRow;
}

/**
 * `decodeSessionRow` for a row whose jsonb columns came as text (`countRequestFetch`): each is
 * parsed when first read. A fetch served the object signed at creation reads none of them
 * (the query, metadata, chain and attestations are inside that object), and parsing them
 * was most of the cost of decoding its row; a fetch signing anew reads them as before.
 */
export function decodeSessionRowParsingJsonOnUse(raw: Record<string, unknown>): SessionRow {
  const row: Record<string, unknown> = {};
  for (const [key, column] of SESSION_COLUMN_ENTRIES) {
    const value = raw[column.name];
    if (value === null || value === undefined) row[key] = null;
    else if (SESSION_JSON_KEYS.has(key)) defineParsedOnFirstRead(row, key, value as string);
    else row[key] = column.mapFromDriverValue(value);
  }
  return row as SessionRow;
}

/** `row[key]` is `JSON.parse(text)`, parsed on its first read (or replaced by a write) and a plain property from then on. */
function defineParsedOnFirstRead(row: Record<string, unknown>, key: string, text: string): void {
  const settle = (value: unknown) =>
    Object.defineProperty(row, key, { value, writable: true, enumerable: true, configurable: true });
  Object.defineProperty(row, key, {
    enumerable: true,
    configurable: true,
    get: () => {
      const value: unknown = JSON.parse(text);
      settle(value);
      return value;
    },
    set: settle,
  });
}
