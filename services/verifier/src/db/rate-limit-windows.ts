import { runRawStatement } from '@tessera/service-kit';
import type { VerifierDb } from './types.js';

// One statement per limited request: a window that ended restarts at 1, otherwise the
// count goes up. PostgreSQL's clock decides, so replicas with skewed clocks agree.
const COUNT_REQUEST = `
insert into verifier.rate_limit_windows as w (key, count, window_ends_at)
values ($1, 1, now() + $2::integer * interval '1 millisecond')
on conflict (key) do update set
  count = case when w.window_ends_at <= now() then 1 else w.count + 1 end,
  window_ends_at = case when w.window_ends_at <= now() then excluded.window_ends_at else w.window_ends_at end
returning count, ceil(extract(epoch from w.window_ends_at - now()) * 1000)::integer as ttl_ms`;

/** Counts one request in `key`'s fixed window (started by its first request) and returns the count and the time left. */
export async function countRequestInWindow(
  db: VerifierDb,
  params: { key: string; windowMs: number },
): Promise<{ count: number; ttlMs: number }> {
  const [row] = await runRawStatement<{ count: number; ttl_ms: number }>(db, COUNT_REQUEST, [
    params.key,
    params.windowMs,
  ]);
  return { count: Number(row!.count), ttlMs: Math.max(0, Number(row!.ttl_ms)) };
}

/** Deletes at most `limit` windows that ended before now; returns how many went (a full batch means more may be left). */
export async function deleteEndedRateLimitWindows(db: VerifierDb, params: { limit: number }): Promise<number> {
  const rows = await runRawStatement(
    db,
    `delete from verifier.rate_limit_windows where key in (
       select key from verifier.rate_limit_windows where window_ends_at <= now() limit $1 for update skip locked)
     returning 1`,
    [params.limit],
  );
  return rows.length;
}
