import type { Clock, Database } from '@tessera/service-kit';
import type { ManualClock } from '@tessera/service-kit/testing';
import type { StatusListDbSchema } from '../../src/db/schema.js';
import { AggregationCache } from '../../src/state/aggregation-cache.js';
import { StatusListCache } from '../../src/state/status-list-cache.js';
import type { CreateStatusListDeps } from '../../src/use-cases/create-status-list.js';
import type { ReadStatusListAggregationDeps } from '../../src/use-cases/read-status-list-aggregation.js';
import type { ReadStatusListDeps } from '../../src/use-cases/read-status-list.js';
import type { UpdateStatusListDeps } from '../../src/use-cases/update-status-list.js';

/** What the operations take, as `buildApp` wires them for one replica. */
export interface ReplicaDeps
  extends CreateStatusListDeps, UpdateStatusListDeps, ReadStatusListDeps, ReadStatusListAggregationDeps {
  cache: StatusListCache;
  aggregation: AggregationCache;
  clock: Clock;
}

export interface ReplicaOptions {
  /** CACHE_TTL_MS: the staleness bound (default 1000). */
  ttlMs?: number;
  /** MAX_LIST_BYTES (default 1 MiB). */
  maxListBytes?: number;
  /** STATUS_LIST_HISTORY_DAYS > 0: updates keep what they replace and `?time=` is answered (off unless asked). */
  keepHistory?: boolean;
}

/** One replica's operations on `database`: its own cache, on the test's clock (writes and staleness alike). */
export function replicaDeps(
  database: Database<StatusListDbSchema>,
  time: ManualClock,
  options: ReplicaOptions = {},
): ReplicaDeps {
  const now = () => time.now().getTime();
  return {
    db: database.db,
    cache: new StatusListCache({ ttlMs: options.ttlMs ?? 1000, maxEntries: 100, now }),
    aggregation: new AggregationCache({ ttlMs: options.ttlMs ?? 1000, now }),
    keepHistory: options.keepHistory ?? false,
    maxListBytes: options.maxListBytes ?? 1024 * 1024,
    clock: time.clock,
  };
}
