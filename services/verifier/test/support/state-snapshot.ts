import { snapshotSchema } from '@tessera/service-kit/testing';
import type { Database } from '@tessera/service-kit';
// The snapshot is of the stored rows, typed by the schema (src/db): "a 4xx changes nothing" compares tables.
import type { VerifierDbSchema } from '../../src/db/schema.js';

/**
 * Per-session request counts (SESSION_REQUEST_FETCH_LIMIT, SESSION_RESPONSE_LIMIT) are
 * bumped by every request that names a session, refused ones included — that is what
 * makes them a limit. The per-address counts (`rate_limit_windows`) move on every wallet
 * request the same way. They are bookkeeping, not state, so "a 4xx changes nothing"
 * compares everything else.
 */
const COUNTER_COLUMNS = ['request_fetch_count', 'response_count', 'limit_window_started_at'];

/** `snapshotSchema` of the verifier's schema without the per-session and per-address counters. */
export async function snapshotWithoutSessionCounters(
  database: Database<VerifierDbSchema>,
): Promise<Record<string, unknown[]>> {
  const { rate_limit_windows: _perAddressCounts, ...snapshot } = await snapshotSchema(database, 'verifier');
  snapshot.presentation_sessions = (snapshot.presentation_sessions ?? []).map((row) =>
    Object.fromEntries(
      Object.entries(row as Record<string, unknown>).filter(([column]) => !COUNTER_COLUMNS.includes(column)),
    ),
  );
  return snapshot;
}
