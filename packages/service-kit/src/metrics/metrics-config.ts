import { Type } from 'typebox';

/**
 * METRICS_PORT and METRICS_HOST: where `/metrics` is served, on a listener of its own.
 * METRICS_PORT has no schema default because the default depends on the service
 * (`metricsPortOf`); `0` is an ephemeral port.
 */
export const metricsConfigProperties = {
  /**
   * false: no metrics listener, no process collectors, no HTTP, NATS or pool
   * instrumentation (the domain counters still count, unserved). For measuring what
   * metrics cost (bench/) and for a deployment that scrapes nothing.
   */
  METRICS_ENABLED: Type.Boolean({ default: true }),
  METRICS_PORT: Type.Optional(Type.Integer({ minimum: 0, maximum: 65535 })),
  METRICS_HOST: Type.String({ default: '0.0.0.0' }),
};

export interface MetricsConfig {
  NODE_ENV?: string;
  METRICS_ENABLED?: boolean;
  METRICS_PORT?: number;
  METRICS_HOST?: string;
}

/**
 * The metrics port: METRICS_PORT, else the service's default (verifier 9101, ecosystem
 * 9102, status list 9103, so the three on one host do not collide) — except under
 * NODE_ENV=test, where an unset port is ephemeral, so test processes running in
 * parallel never fight over a fixed port.
 */
export function metricsPortOf(config: MetricsConfig, defaultPort: number): number {
  return config.METRICS_PORT ?? (config.NODE_ENV === 'test' ? 0 : defaultPort);
}
