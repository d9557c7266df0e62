import { deleteVersionsSupersededBefore, tryLockHistoryPrune } from '../db/status-list-versions.js';
import type { StatusListDb } from '../db/types.js';
import type { Clock } from '@tessera/service-kit';

export interface PruneStatusListHistoryDeps {
  db: StatusListDb;
  clock: Clock;
}

export interface PruneStatusListHistoryInput {
  /** STATUS_LIST_HISTORY_DAYS: versions replaced longer ago are deleted (0: every version). */
  historyDays: number;
  /** Versions per statement. */
  batchSize?: number;
  /** Batches per run at most, so a large backlog yields to the next run (which follows at once). */
  maxBatches?: number;
  signal?: AbortSignal;
}

export interface PruneStatusListHistoryReport {
  /** False when another replica held the prune lock: this replica deleted nothing. */
  ran: boolean;
  /** Versions deleted. */
  versions: number;
  /** The run stopped at `maxBatches` with work left. */
  more: boolean;
}

const DAY_MS = 86_400_000;

/**
 * One run of the history prune (the job in `jobs/` repeats it on every replica): deletes
 * the versions replaced more than `historyDays` ago, in batches. Each batch is one
 * transaction that first takes the prune's advisory lock (pg_try_advisory_xact_lock):
 * while one replica prunes, the others skip the run, so there is one runner at a time
 * across replicas. Writes never wait on it: they add versions and never touch old ones.
 * A list's current token is its row, never a version, so pruning never removes what a
 * list serves now. With `historyDays` 0 every kept version goes (history switched off).
 */
export async function pruneStatusListHistory(
  deps: PruneStatusListHistoryDeps,
  input: PruneStatusListHistoryInput,
): Promise<PruneStatusListHistoryReport> {
  const batchSize = input.batchSize ?? 1000;
  const maxBatches = input.maxBatches ?? 20;
  const report: PruneStatusListHistoryReport = { ran: false, versions: 0, more: false };
  for (let batch = 0; batch < maxBatches; batch++) {
    if (input.signal?.aborted) break;
    const before = new Date(deps.clock().getTime() - input.historyDays * DAY_MS);
    const deleted = await deps.db.transaction(async (tx) => {
      if (!(await tryLockHistoryPrune(tx))) return undefined;
      return deleteVersionsSupersededBefore(tx, { before, limit: batchSize });
    });
    if (deleted === undefined) break;
    report.ran = true;
    report.versions += deleted;
    if (deleted < batchSize) break;
    report.more = batch === maxBatches - 1;
  }
  return report;
}
