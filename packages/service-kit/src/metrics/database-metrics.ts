import { Gauge, type Registry } from 'prom-client';

/**
 * What the database wrapper tells about its pool. postgres.js exposes no pool
 * statistics, so the wrapper counts what is in flight: a query from the moment it is
 * sent until it settles, a transaction for its whole length (it holds a connection).
 * In flight up to the pool size is `in_use`; beyond it, `waiting` for a connection;
 * `idle` is the pool size less `in_use` (connections the pool may still hand out,
 * whether open or not yet opened).
 */
export interface PoolObserver {
  started(): void;
  finished(): void;
}

export interface DatabaseMetrics {
  /**
   * Attaches a pool of `size` connections to `tessera_db_pool_connections` and returns
   * what its wrapper reports to; undefined when metrics are off (no wrapper at all).
   */
  observePool(size: number): PoolObserver | undefined;
  /** Sets `tessera_db_migrations_applied`: migrations recorded in the service's migrations table. */
  migrationsApplied: Gauge;
}

export function createDatabaseMetrics(registry: Registry, enabled = true): DatabaseMetrics {
  const pool = { size: 0, inFlight: 0 };
  new Gauge({
    name: 'tessera_db_pool_connections',
    help: 'Database pool connections by state: in_use, idle (free pool slots), waiting (queries waiting for a connection).',
    labelNames: ['state'],
    registers: [registry],
    collect() {
      const inUse = Math.min(pool.inFlight, pool.size);
      this.set({ state: 'in_use' }, inUse);
      this.set({ state: 'idle' }, pool.size - inUse);
      this.set({ state: 'waiting' }, Math.max(0, pool.inFlight - pool.size));
    },
  });
  return {
    observePool(size) {
      if (!enabled) return undefined;
      pool.size = size;
      return {
        started: () => void pool.inFlight++,
        finished: () => void pool.inFlight--,
      };
    },
    migrationsApplied: new Gauge({
      name: 'tessera_db_migrations_applied',
      help: "Migrations recorded as applied in this service's migrations table, read at start.",
      registers: [registry],
    }),
  };
}
