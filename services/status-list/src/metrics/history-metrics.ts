import { Counter, type Registry } from '@tessera/service-kit';

/** How a prune run ended: it pruned (0 or more versions), another replica held the lock, or it failed. */
export type PruneOutcome = 'ran' | 'skipped' | 'failed';

/** The series of the status list history (README, Operating Tessera: Metrics). */
export interface HistoryMetrics {
  /** A `?time=` read, by the HTTP status answered. */
  recordHistoryRead(status: number): void;
  /** A prune run, by outcome, with the versions it deleted. */
  recordPrune(outcome: PruneOutcome, versions: number): void;
}

export function createHistoryMetrics(registry: Registry): HistoryMetrics {
  const reads = new Counter({
    name: 'tessera_status_list_history_reads_total',
    help: 'Status list reads with ?time= (history), by HTTP status answered (404: unknown list or no version valid then).',
    labelNames: ['status'],
    registers: [registry],
  });
  const runs = new Counter({
    name: 'tessera_status_list_history_prune_runs_total',
    help: 'Runs of the history prune job by outcome: ran (this replica pruned), skipped (another replica held the prune lock), failed.',
    labelNames: ['outcome'],
    registers: [registry],
  });
  const pruned = new Counter({
    name: 'tessera_status_list_history_pruned_versions_total',
    help: 'Status list versions deleted by the history prune job (replaced longer ago than STATUS_LIST_HISTORY_DAYS).',
    registers: [registry],
  });
  return {
    recordHistoryRead(status) {
      reads.inc({ status: String(status) });
    },
    recordPrune(outcome, versions) {
      runs.inc({ outcome });
      if (versions > 0) pruned.inc(versions);
    },
  };
}
