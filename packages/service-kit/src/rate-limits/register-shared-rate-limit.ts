import rateLimit from '@fastify/rate-limit';
import { ErrorCode } from '@tessera/contracts';
import type { FastifyRequest, onRequestHookHandler } from 'fastify';
import type { App } from '../create-app.js';
import { AppError } from '../errors.js';
import { clientAddressKey } from './client-address-key.js';
import type { Registry } from 'prom-client';
import type { Clock } from '../clock.js';
import type { Logger } from '../logger.js';
import { createRateLimitMetrics } from './rate-limit-metrics.js';
import type { RateLimitWindowStore } from './rate-limit-window-store.js';
import { SharedRateLimitCounts } from './shared-rate-limit-counts.js';

/** What @fastify/rate-limit hands a store's `incr` callback. */
type IncrCallback = (error: Error | null, result: { current: number; ttl: number } | null) => void;

/** The part of a route's merged rate-limit options a child store reads (no route for a scope's hook: `sharedRateLimitHook`). */
interface RouteRateLimitOptions {
  routeInfo: { method?: string | string[]; url?: string };
}

export interface SharedRateLimitOptions {
  /** Where the replicas share their counts: `postgresRateLimitWindows(db, { schema })`. */
  store: RateLimitWindowStore;
  clock: Clock;
  logger: Logger;
  /** The service's metrics registry: the rate limits' series (`createRateLimitMetrics`) go there. */
  registry: Registry;
  /** RATE_LIMIT_SYNC_MS: how often the counts are shared (the staleness bound is twice this). */
  syncIntervalMs: number;
  /** RATE_LIMIT_IPV6_PREFIX: IPv6 clients are counted by their network of this many bits. */
  ipv6PrefixLength: number;
  /** The error a refused request answers (429 in the scope's error shape); `rateLimitedError` unless given. `Retry-After` is set by the plugin. */
  errorResponseBuilder?: (request: FastifyRequest, context: { ttl: number }) => Error;
}

/** 429 `RATE_LIMITED` with the platform error body, saying when to retry. */
export function rateLimitedError(_request: FastifyRequest, context: { ttl: number }): AppError {
  return new AppError(
    429,
    ErrorCode.RATE_LIMITED,
    `Too many requests from this address: retry after ${Math.ceil(context.ttl / 1000)} s.`,
  );
}

/**
 * Makes the replica's shared counts (`SharedRateLimitCounts`, with their series) and
 * registers @fastify/rate-limit for the routes that ask for it (`config: { rateLimit:
 * { max, timeWindow } }`, checked in the route's onRequest hooks) or whose scope adds
 * `sharedRateLimitHook` (checked before the scope's other hooks: a token check, say), per
 * client address (`request.ip`, IPv6 by network) and per route, counting in `counts`:
 * judged in memory, shared with the other replicas in the background. A limited request
 * costs no statement, refused or not. Answers the counts: the caller starts them once the
 * app is built and stops them before the database closes.
 */
export async function registerSharedRateLimit(
  app: App,
  options: SharedRateLimitOptions,
): Promise<SharedRateLimitCounts> {
  const metrics = createRateLimitMetrics(options.registry);
  const counts = new SharedRateLimitCounts({
    store: options.store,
    clock: options.clock,
    logger: options.logger,
    syncIntervalMs: options.syncIntervalMs,
    metrics,
  });
  class SharedRateLimitStore {
    constructor(
      _options: unknown,
      private readonly scope = '',
    ) {}

    incr(key: string, callback: IncrCallback, timeWindow: number, max: number): void {
      const { current, ttlMs } = counts.hit(this.scope, key, timeWindow, max);
      callback(null, { current, ttl: ttlMs });
    }

    child(routeOptions: RouteRateLimitOptions): SharedRateLimitStore {
      const { method, url } = routeOptions.routeInfo;
      // A scope's hook has no route of its own: the key names the route (keyGenerator).
      return new SharedRateLimitStore(routeOptions, url ? `${[method].flat().join(',')} ${url}` : 'scope');
    }
  }
  await app.register(rateLimit, {
    global: false,
    store: SharedRateLimitStore as never,
    keyGenerator: (request) =>
      `${request.method} ${routeOf(request)}\n${clientAddressKey(request.ip, options.ipv6PrefixLength)}`,
    errorResponseBuilder: (options.errorResponseBuilder ?? rateLimitedError) as never,
    onExceeded: (request: FastifyRequest) => metrics.refused.inc({ route: routeOf(request) }),
  });
  return counts;
}

function routeOf(request: FastifyRequest): string {
  return request.routeOptions.url ?? 'unmatched';
}

/**
 * An onRequest hook for a scope whose routes share a per-address limit (each route
 * counted on its own), for the scope to add before its other hooks: a refused request
 * then costs nothing else (no token check, no statement). Needs `registerSharedRateLimit`.
 */
export function sharedRateLimitHook(app: App, limit: { max: number; timeWindow: number }): onRequestHookHandler {
  return app.rateLimit(limit) as onRequestHookHandler;
}
