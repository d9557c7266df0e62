import type { Logger } from '@tessera/service-kit';
import type { StatusListDb } from '../db/types.js';
import type { Clock } from '@tessera/service-kit';
import type { HistoryMetrics } from '../metrics/history-metrics.js';
import { pruneStatusListHistory } from '../use-cases/prune-status-list-history.js';

export interface HistoryPruneJobOptions {
  db: StatusListDb;
  clock: Clock;
  logger: Logger;
  metrics: Pick<HistoryMetrics, 'recordPrune'>;
  /** STATUS_LIST_HISTORY_DAYS. */
  historyDays: number;
  /** STATUS_LIST_HISTORY_PRUNE_INTERVAL_SECONDS × 1000: the pause between runs. */
  intervalMs: number;
}

/**
 * Runs the history prune on this replica at start and then `intervalMs` after each run
 * ends (at once while a run stops with work left). Every replica runs it; the prune's
 * advisory lock makes one of them at a time do the work (`pruneStatusListHistory`). A
 * failed run is logged and counted, and the job goes on. Returns a function that stops
 * the job and waits for a run under way.
 */
export function startHistoryPruneJob(options: HistoryPruneJobOptions): () => Promise<void> {
  const { db, clock, logger, metrics } = options;
  const aborter = new AbortController();
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> | undefined;

  const schedule = (delayMs: number) => {
    if (aborter.signal.aborted) return;
    timer = setTimeout(run, delayMs);
    // A pending run never keeps the process alive on its own.
    timer.unref();
  };

  function run(): void {
    running = pruneStatusListHistory({ db, clock }, { historyDays: options.historyDays, signal: aborter.signal })
      .then(
        (report) => {
          metrics.recordPrune(report.ran ? 'ran' : 'skipped', report.versions);
          if (report.versions > 0)
            logger.info({ versions: report.versions, more: report.more }, 'status list history pruned');
          schedule(report.more ? 0 : options.intervalMs);
        },
        (error: unknown) => {
          if (aborter.signal.aborted) return;
          metrics.recordPrune('failed', 0);
          logger.warn({ err: error }, 'status list history prune failed; trying again later');
          schedule(options.intervalMs);
        },
      )
      .finally(() => {
        running = undefined;
      });
  }

  schedule(0);
  return async () => {
    aborter.abort(new Error('history prune stopped'));
    clearTimeout(timer);
    await running;
  };
}
