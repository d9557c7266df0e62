import { Type, type Static } from 'typebox';
import {
  commonConfigProperties,
  databaseTlsConfigRule,
  loadConfig,
  metricsConfigProperties,
} from '@tessera/service-kit';

export const SERVICE_NAME = 'status-list';
export const DEFAULT_PORT = 3003;
/** METRICS_PORT when unset (README, Operating Tessera: Metrics). */
export const DEFAULT_METRICS_PORT = 9103;

export const StatusListConfigSchema = Type.Object({
  ...commonConfigProperties(DEFAULT_PORT),
  ...metricsConfigProperties,
  /** Secret for writes (`x-api-key`); required outside development. */
  API_KEY: Type.Optional(Type.String({ minLength: 16 })),
  /** Used in `Location` headers and the OpenAPI document only. */
  PUBLIC_BASE_URL: Type.Optional(Type.String({ pattern: '^https?://' })),
  /** Largest inflated status list accepted, in bytes (compression-bomb cap). */
  MAX_LIST_BYTES: Type.Integer({ minimum: 1, maximum: 256 * 1024 * 1024, default: 16 * 1024 * 1024 }),
  /** How long a replica may serve a list from memory before re-reading it (staleness bound across replicas). */
  CACHE_TTL_MS: Type.Integer({ minimum: 0, maximum: 60000, default: 1000 }),
  /** Most lists kept in memory; least recently used are dropped first. */
  CACHE_MAX_ENTRIES: Type.Integer({ minimum: 0, maximum: 10_000_000, default: 100_000 }),
  /** `Cache-Control: max-age` for lists without `ttl` or `exp` (and for the aggregation). */
  DEFAULT_MAX_AGE_SECONDS: Type.Integer({ minimum: 0, maximum: 31_536_000, default: 60 }),
  /** Days a replaced token is kept for `?time=` (history); 0 keeps none and answers `?time=` 501. */
  STATUS_LIST_HISTORY_DAYS: Type.Integer({ minimum: 0, maximum: 36_500, default: 365 }),
  /** Pause between runs of the history prune job on each replica (one replica at a time prunes). */
  STATUS_LIST_HISTORY_PRUNE_INTERVAL_SECONDS: Type.Integer({ minimum: 1, maximum: 86_400, default: 3600 }),
});

export type StatusListConfig = Static<typeof StatusListConfigSchema>;

export function loadStatusListConfig(env: Record<string, string | undefined> = process.env): StatusListConfig {
  return loadConfig(StatusListConfigSchema, env, [
    databaseTlsConfigRule,
    (config) =>
      config.NODE_ENV !== 'development' && !config.API_KEY
        ? 'API_KEY: is required outside development mode'
        : undefined,
  ]);
}
