import { sql } from 'drizzle-orm';
import { rowsOf } from './rows-of.js';

/**
 * Runs a statement written out in SQL with positional parameters (`$1`, `$2`…)
 * on the driver itself — postgres-js (prepared per connection) or PGlite —
 * without the query builder, for hot statements the builder cannot express and
 * would otherwise assemble from hundreds of chunks on every call. `text` must be
 * fixed SQL (never built from input); every value goes in `params`, with casts in
 * the text where the column type matters (`$3::jsonb`). Inside a transaction (a
 * handle without a client of its own) it runs through Drizzle's `sql` instead.
 */
export async function runRawStatement<Row = Record<string, unknown>>(
  db: object,
  text: string,
  params: readonly unknown[],
): Promise<Row[]> {
  const client = (db as { $client?: RawClient }).$client;
  // postgres-js answers an array (its Result): handed on as it is, not copied.
  if (client && typeof client.unsafe === 'function')
    return (await client.unsafe(text, params as unknown[], { prepare: true })) as Row[];
  if (client && typeof client.query === 'function')
    return (await client.query(text, params as unknown[])).rows as Row[];
  const execute = (db as { execute?: (query: unknown) => Promise<unknown> }).execute;
  if (!execute) throw new Error('runRawStatement needs a Drizzle database or transaction');
  return rowsOf<Row>(await execute.call(db, withParams(text, params)));
}

interface RawClient {
  unsafe?: (text: string, params: unknown[], options: { prepare: boolean }) => Promise<unknown[]>;
  query?: (text: string, params: unknown[]) => Promise<{ rows: unknown[] }>;
}

/** `text` with its `$n` markers replaced by Drizzle parameters (the transaction path). */
function withParams(text: string, params: readonly unknown[]) {
  const parts = text.split(/\$(\d+)/);
  const chunks = [];
  for (let index = 0; index < parts.length; index++) {
    chunks.push(index % 2 === 0 ? sql.raw(parts[index]!) : sql`${params[Number(parts[index]) - 1]}`);
  }
  return sql.join(chunks);
}
