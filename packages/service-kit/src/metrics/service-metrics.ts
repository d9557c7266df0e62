import { collectDefaultMetrics, Registry } from 'prom-client';
import { createDatabaseMetrics, type DatabaseMetrics } from './database-metrics.js';
import { createHttpMetrics, type HttpMetrics } from './http-metrics.js';
import { createNatsMetrics, type NatsMetrics } from './nats-metrics.js';

/**
 * One service's metrics: its own registry (never prom-client's global one, so several
 * apps in one process — `npm start`, tests — never collide), every series labelled
 * `service`, and the series the kit records for every service. A service adds its
 * domain series to `registry`.
 */
export interface ServiceMetrics {
  service: string;
  /** False under METRICS_ENABLED=false: nothing is served and the kit instruments nothing. */
  enabled: boolean;
  registry: Registry;
  http: HttpMetrics;
  nats: NatsMetrics;
  database: DatabaseMetrics;
}

export interface CreateServiceMetricsOptions {
  service: string;
  /**
   * Node.js process series (CPU, memory, event loop lag, GC). A process collects them
   * once per service it runs (`startService` does); apps built in tests leave them out,
   * since each collection installs its own observers.
   */
  processDefaults?: boolean;
  /** Default true; false leaves HTTP, NATS and the pool uninstrumented (`METRICS_ENABLED`). */
  enabled?: boolean;
}

export function createServiceMetrics(options: CreateServiceMetricsOptions): ServiceMetrics {
  const registry = new Registry();
  registry.setDefaultLabels({ service: options.service });
  const enabled = options.enabled ?? true;
  if (enabled && options.processDefaults) collectDefaultMetrics({ register: registry });
  return {
    service: options.service,
    enabled,
    registry,
    http: createHttpMetrics(registry, enabled),
    nats: createNatsMetrics(registry, enabled),
    database: createDatabaseMetrics(registry, enabled),
  };
}
