export * from './service-metrics.js';
export * from './http-metrics.js';
export * from './nats-metrics.js';
export * from './database-metrics.js';
export * from './metrics-server.js';
export * from './metrics-config.js';
export * from './observe-outcome.js';
/** The prom-client types services build their domain series with (one copy of the library, the kit's). */
export { Counter, Gauge, Histogram, type Registry } from 'prom-client';
