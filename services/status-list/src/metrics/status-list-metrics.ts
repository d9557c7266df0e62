import { Counter, observeOutcome, type Registry } from '@tessera/service-kit';

/** Where a read found the list: this replica's memory, or the database. */
export type CacheOutcome = 'hit' | 'miss';

/** The status list service's own series (README, Operating Tessera: Metrics). */
export interface StatusListMetrics {
  /** A read that looked the list up, by cache outcome and the HTTP status answered (304s are `status="304"`). */
  recordRead(cache: CacheOutcome, status: number): void;
  /** Runs a write and counts it by operation and result (`ok` or the error code). */
  countWrite<T>(operation: 'create' | 'update', write: () => Promise<T>): Promise<T>;
}

export function createStatusListMetrics(registry: Registry): StatusListMetrics {
  const reads = new Counter({
    name: 'tessera_status_list_reads_total',
    help: "Status list reads that looked a list up, by cache (hit: this replica's memory, miss: the database) and HTTP status answered.",
    labelNames: ['cache', 'status'],
    registers: [registry],
  });
  const notModified = new Counter({
    name: 'tessera_status_list_not_modified_total',
    help: 'Status list reads answered 304 Not Modified (If-None-Match matched).',
    registers: [registry],
  });
  const writes = new Counter({
    name: 'tessera_status_list_writes_total',
    help: 'Status list writes by operation (create, update) and result (ok or the error code).',
    labelNames: ['operation', 'result'],
    registers: [registry],
  });
  // The read path is the hot one: its commonest children bound once.
  const bound = new Map<string, Counter.Internal>();
  for (const cache of ['hit', 'miss'] as const)
    for (const status of [200, 304, 404])
      bound.set(`${cache}${status}`, reads.labels({ cache, status: String(status) }));
  return {
    recordRead(cache, status) {
      (bound.get(`${cache}${status}`) ?? reads.labels({ cache, status: String(status) })).inc();
      if (status === 304) notModified.inc();
    },
    countWrite(operation, write) {
      return observeOutcome(write, (result) => writes.inc({ operation, result }));
    },
  };
}
