import { Counter, Gauge, type Registry } from 'prom-client';

/** The series of the shared per-address rate limits (`SharedRateLimitCounts`, `registerSharedRateLimit`). */
export interface RateLimitMetrics {
  /** Requests refused by a per-address limit, by route template. */
  refused: Counter<'route'>;
  /** Exchanges of counts with the store: `ok`, or `failed` (the replicas limit on their own until one succeeds). */
  exchanges: Counter<'result'>;
  /** Keys (client addresses or /64s, per route) this replica remembers in their current window. */
  trackedKeys: Gauge;
}

export function createRateLimitMetrics(registry: Registry): RateLimitMetrics {
  const exchanges = new Counter({
    name: 'tessera_rate_limit_exchanges_total',
    help: 'Exchanges of per-address rate-limit counts with PostgreSQL (one statement each), by result: ok or failed.',
    labelNames: ['result'],
    registers: [registry],
  });
  // Both results exist from the start, so an alert on `failed` has a series to read.
  for (const result of ['ok', 'failed']) exchanges.inc({ result }, 0);
  return {
    refused: new Counter({
      name: 'tessera_rate_limited_requests_total',
      help: 'Requests refused (429) by a per-address rate limit, by route template.',
      labelNames: ['route'],
      registers: [registry],
    }),
    exchanges,
    trackedKeys: new Gauge({
      name: 'tessera_rate_limit_tracked_keys',
      help: 'Client keys (per route) this replica counts in their current window, as of the last exchange.',
      registers: [registry],
    }),
  };
}
