import { runRawStatement } from '../db/raw-statement.js';
import type { RateLimitDelta, RateLimitTotal, RateLimitWindowStore } from './rate-limit-window-store.js';

/**
 * The table each service with shared rate limits keeps in its own schema (its Drizzle
 * schema declares it with `rateLimitWindowsColumns`): `key` text PK (a hash, never a
 * client address), `count`, `window_ends_at` (indexed, for the cleanup) and `updated_at`
 * (indexed, for the exchange's reads of what other replicas changed).
 */
export const RATE_LIMIT_WINDOWS_TABLE = 'rate_limit_windows';

/**
 * The shared rate-limit counts in `<schema>.rate_limit_windows`. One statement per
 * exchange, whatever the number of keys: the deltas go in as arrays, in key order so that
 * two replicas' exchanges lock rows in the same order (no deadlock); the totals come back
 * from the same upsert, with the windows other replicas changed since the last exchange.
 */
export function postgresRateLimitWindows(db: object, options: { schema: string }): RateLimitWindowStore {
  if (!/^[a-z_][a-z0-9_]*$/.test(options.schema)) throw new Error(`not a schema name: ${options.schema}`);
  const table = `"${options.schema}"."${RATE_LIMIT_WINDOWS_TABLE}"`;
  // $1 keys, $2 window ends (ms since the epoch), $3 deltas, $4 read changes, $5 changed since (null: all).
  // A later window restarts the count, the same window adds, an earlier one (a replica
  // still in a window that ended elsewhere) changes nothing. The second part reads the
  // snapshot from before the upsert, so the keys sent are left to the first part; the
  // last row (key null) carries the store's time.
  const exchange = `
    with sent as (
      insert into ${table} as w (key, count, window_ends_at, updated_at)
      select key, delta, to_timestamp(ends_ms / 1000.0), now()
      from unnest($1::text[], $2::float8[], $3::integer[]) as i(key, ends_ms, delta)
      order by key
      on conflict (key) do update set
        count = case
          when w.window_ends_at < excluded.window_ends_at then excluded.count
          when w.window_ends_at = excluded.window_ends_at then w.count + excluded.count
          else w.count end,
        window_ends_at = greatest(w.window_ends_at, excluded.window_ends_at),
        updated_at = now()
      returning w.key, w.count, w.window_ends_at
    )
    select key, count, (extract(epoch from window_ends_at) * 1000)::float8 as ends_ms from sent
    union all
    select key, count, (extract(epoch from window_ends_at) * 1000)::float8 from ${table}
    where $4::boolean and ($5::timestamptz is null or updated_at >= $5::timestamptz)
      and window_ends_at > now() and key <> all($1::text[])
    union all
    select null, null, (extract(epoch from now()) * 1000)::float8`;
  const deleteEnded = `
    delete from ${table} where key in (
      select key from ${table} where window_ends_at <= now() limit $1 for update skip locked)
    returning 1`;
  return {
    async exchange(deltas: readonly RateLimitDelta[], changes: { since: Date | undefined } | undefined) {
      const rows = await runRawStatement<{ key: string | null; count: number | null; ends_ms: number }>(db, exchange, [
        deltas.map((d) => d.key),
        deltas.map((d) => d.endsAtMs),
        deltas.map((d) => d.delta),
        changes !== undefined,
        changes?.since?.toISOString() ?? null,
      ]);
      const totals: RateLimitTotal[] = [];
      let now: Date | undefined;
      for (const row of rows) {
        if (row.key === null) now = new Date(Number(row.ends_ms));
        else totals.push({ key: row.key, count: Number(row.count), endsAtMs: Number(row.ends_ms) });
      }
      if (!now) throw new Error('the rate-limit exchange answered without the store time');
      return { totals, now };
    },
    async deleteEnded(limit: number): Promise<number> {
      return (await runRawStatement(db, deleteEnded, [limit])).length;
    },
  };
}
