import type { Logger } from '@tessera/service-kit';
import type { ListChange, StatusListCache } from './status-list-cache.js';

export interface StartCacheSyncOptions {
  cache: StatusListCache;
  /** Lists changed recently (a window longer than any write transaction), read from the database. */
  pollChanges: () => Promise<ListChange[]>;
  intervalMs: number;
  logger: Logger;
  now?: () => number;
}

/**
 * Polls the database for recently changed lists every `intervalMs` and applies the
 * result to the cache: one cheap query per interval, whatever the number of lists,
 * instead of re-reading every cached list. Returns a function that stops polling.
 */
export function startCacheSync(options: StartCacheSyncOptions): () => Promise<void> {
  const now = options.now ?? Date.now;
  let running: Promise<void> | undefined;
  let failing = false;
  const tick = () => {
    if (running) return;
    const startedAt = now();
    running = options
      .pollChanges()
      .then(
        (changes) => {
          options.cache.applyChanges(startedAt, changes);
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
  const timer = setInterval(tick, options.intervalMs);
  timer.unref();
  return async () => {
    clearInterval(timer);
    await running;
  };
}
