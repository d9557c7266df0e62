import {
  createApp,
  createServiceMetrics,
  type App,
  type Clock,
  type Database,
  type Logger,
  type ServiceMetrics,
} from '@tessera/service-kit';
import type { StatusListConfig } from './config.js';
import type { StatusListDbSchema } from './db/schema.js';
import { listChangesSince } from './db/status-lists.js';
import { startHistoryPruneJob } from './jobs/history-prune-job.js';
import { createHistoryMetrics } from './metrics/history-metrics.js';
import { createStatusListMetrics } from './metrics/status-list-metrics.js';
import { registerStatusListRoutes } from './routes/status-lists.js';
import { AggregationCache } from './state/aggregation-cache.js';
import { startCacheSync } from './state/cache-sync.js';
import { StatusListCache } from './state/status-list-cache.js';

export interface StatusListAppDeps {
  config: StatusListConfig;
  /** The write secret in force (API_KEY, or the development key). */
  apiKey: string;
  database: Database<StatusListDbSchema>;
  logger: Logger;
  /** The time of writes, of the cache's staleness bound and of `max-age` (`systemClock` in production). */
  clock: Clock;
  /** The service's metrics (`startService` serves them on METRICS_PORT); a registry of the app's own unless given. */
  metrics?: ServiceMetrics;
}

/** Builds the status list service's app. No I/O happens here beyond what `deps` do. */
export async function buildApp(deps: StatusListAppDeps): Promise<App> {
  const { config, database, logger, clock } = deps;
  // The read path's clock in ms: the cache and each list's Cache-Control read it.
  const now = () => clock().getTime();
  const metrics = deps.metrics ?? createServiceMetrics({ service: 'status-list' });
  const app = await createApp({
    name: 'status-list',
    title: 'Tessera status list service',
    description:
      'Stores issuer-signed Token Status Lists (draft-ietf-oauth-status-list) as JWTs or CWTs and serves them byte for byte to verifiers and wallets, with their history (?time=) and the Status List Aggregation.',
    logger,
    bodyLimit: config.MAX_BODY_BYTES,
    ...(config.TRUST_PROXY ? { trustProxy: config.TRUST_PROXY } : {}),
    readiness: { database: () => database.ping() },
    ...(config.PUBLIC_BASE_URL ? { publicBaseUrl: config.PUBLIC_BASE_URL } : {}),
    securitySchemes: { apiKey: { type: 'apiKey', in: 'header', name: 'x-api-key' } },
    metrics: metrics.http,
  });
  const cache = new StatusListCache({ ttlMs: config.CACHE_TTL_MS, maxEntries: config.CACHE_MAX_ENTRIES, now });
  const aggregation = new AggregationCache({ ttlMs: config.CACHE_TTL_MS, now });
  const historyMetrics = createHistoryMetrics(metrics.registry);
  const keepHistory = config.STATUS_LIST_HISTORY_DAYS > 0;
  await registerStatusListRoutes(app, {
    apiKey: deps.apiKey,
    publicBaseUrl: config.PUBLIC_BASE_URL,
    defaultMaxAgeSeconds: config.DEFAULT_MAX_AGE_SECONDS,
    now,
    useCases: { db: database.db, cache, aggregation, keepHistory, maxListBytes: config.MAX_LIST_BYTES, clock },
    metrics: createStatusListMetrics(metrics.registry),
    historyMetrics,
  });
  // Also with history off: it deletes what an earlier setting kept ("0 keeps none").
  const stopPrune = startHistoryPruneJob({
    db: database.db,
    clock,
    logger,
    metrics: historyMetrics,
    historyDays: config.STATUS_LIST_HISTORY_DAYS,
    intervalMs: config.STATUS_LIST_HISTORY_PRUNE_INTERVAL_SECONDS * 1000,
  });
  app.addHook('onClose', stopPrune);
  if (config.CACHE_TTL_MS > 0) {
    // Poll four times per staleness bound, so one failed poll does not yet expire the cache.
    const stopSync = startCacheSync({
      cache,
      pollChanges: (since) => listChangesSince(database.db, since),
      intervalMs: Math.max(10, Math.floor(config.CACHE_TTL_MS / 4)),
      logger,
      now,
    });
    app.addHook('onClose', stopSync);
  }
  await app.ready();
  return app;
}
