import type { Logger } from '@tessera/service-kit';
import type { ListChange, StatusListCache } from './status-list-cache.js';

export interface ChangePoll {
  watermark: number;
  changes: ListChange[];
}

export interface StartCacheSyncOptions {
  cache: StatusListCache;
  /** Lists written by transactions at or above `since`, and the new watermark (see `listChangesSince`). */
  pollChanges: (since: number | undefined) => Promise<ChangePoll>;
  intervalMs: number;
  logger: Logger;
  /** The clock in ms since the epoch: when each poll starts (the cache's clock). */
  now: () => number;
}

/**
 * Polls the database every `intervalMs` for lists written since the previous poll and
 * applies the result to the cache: one query per interval returning only new writes,
 * whatever the number of lists. The first poll only establishes the watermark.
 * Returns a function that stops polling.
 */
export function startCacheSync(options: StartCacheSyncOptions): () => Promise<void> {
  const { now } = options;
  let watermark: number | undefined;
  let running: Promise<void> | undefined;
  let failing = false;
  const tick = () => {
    if (running) return;
    const startedAt = now();
    running = options
      .pollChanges(watermark)
      .then(
        (poll) => {
          // Before the first watermark there is nothing to compare with: establish it only.
          options.cache.applyChanges(startedAt, watermark === undefined ? [] : poll.changes);
          watermark = poll.watermark;
          if (failing) options.logger.info('status list cache sync recovered');
          failing = false;
        },
        (error: unknown) => {
          // Entries stop being confirmed, so they expire within the bound: no stale reads.
          if (!failing) options.logger.warn({ err: error }, 'status list cache sync failed; cached lists will expire');
          failing = true;
        },
      )
      .finally(() => {
        running = undefined;
      });
  };
  tick();
  const timer = setInterval(tick, options.intervalMs);
  timer.unref();
  return async () => {
    clearInterval(timer);
    await running;
  };
}
