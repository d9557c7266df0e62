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
}

export function createServiceMetrics(options: CreateServiceMetricsOptions): ServiceMetrics {
  const registry = new Registry();
  registry.setDefaultLabels({ service: options.service });
  if (options.processDefaults) collectDefaultMetrics({ register: registry });
  return {
    service: options.service,
    registry,
    http: createHttpMetrics(registry),
    nats: createNatsMetrics(registry),
    database: createDatabaseMetrics(registry),
  };
}
