/** What one replica adds to a key's window: `delta` more requests in the window ending at `endsAtMs`. */
export interface RateLimitDelta {
  /** The stored key: a hash (never a client address). */
  key: string;
  /** The window's end, in ms since the epoch (a multiple of the window's length). */
  endsAtMs: number;
  delta: number;
}

/** A key's count for all replicas together, in the window ending at `endsAtMs`. */
export interface RateLimitTotal {
  key: string;
  endsAtMs: number;
  count: number;
}

/**
 * Where replicas share their per-key counts (`postgresRateLimitWindows`): the only I/O of
 * the shared rate limits, and never on a request's path.
 */
export interface RateLimitWindowStore {
  /**
   * In one round trip: adds each delta to its key's window (a delta for a window older
   * than the stored one is ignored — that window ended; one for a newer window restarts
   * the key's count) and answers those keys' totals; with `changes`, also the totals of
   * every other running window changed at or after `changes.since` (every running window
   * without a `since`): what the other replicas counted. And the store's own time, from
   * which the next exchange's `since` is made.
   */
  exchange(
    deltas: readonly RateLimitDelta[],
    changes: { since: Date | undefined } | undefined,
  ): Promise<{ totals: RateLimitTotal[]; now: Date }>;
  /** Deletes at most `limit` windows that have ended; answers how many went. */
  deleteEnded(limit: number): Promise<number>;
}
