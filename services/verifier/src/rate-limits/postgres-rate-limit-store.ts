import { createHash } from 'node:crypto';
import { countRequestInWindow } from '../db/rate-limit-windows.js';
import type { VerifierDb } from '../db/types.js';

/** What @fastify/rate-limit hands a store's `incr` callback. */
type IncrCallback = (error: Error | null, result: { current: number; ttl: number } | null) => void;

/** The part of a route's merged rate-limit options a child store reads. */
interface RouteRateLimitOptions {
  routeInfo: { method: string | string[]; url: string };
}

/** The store interface of @fastify/rate-limit. */
export interface RateLimitStore {
  incr(key: string, callback: IncrCallback, timeWindow: number): void;
  child(routeOptions: RouteRateLimitOptions): RateLimitStore;
}

/**
 * A @fastify/rate-limit store (its `store` option: a class constructed with the plugin's
 * options) that counts in PostgreSQL, so the per-address limit holds across replicas:
 * one upsert per limited request (`db/rate-limit-windows.ts`). Like the plugin's own
 * stores, each route counts on its own (`child`). Keys are hashed: the table never holds
 * a client address.
 */
export function createPostgresRateLimitStore(db: VerifierDb): new (options: unknown) => RateLimitStore {
  return class PostgresRateLimitStore implements RateLimitStore {
    constructor(
      _options: unknown,
      private readonly scope = '',
    ) {}

    incr(key: string, callback: IncrCallback, timeWindow: number): void {
      const hashed = createHash('sha256').update(`${this.scope}\n${key}`).digest('base64url');
      countRequestInWindow(db, { key: hashed, windowMs: timeWindow }).then(
        ({ count, ttlMs }) => callback(null, { current: count, ttl: ttlMs }),
        (error: Error) => callback(error, null),
      );
    }

    child(routeOptions: RouteRateLimitOptions): RateLimitStore {
      const method = [routeOptions.routeInfo.method].flat().join(',');
      return new PostgresRateLimitStore(routeOptions, `${method} ${routeOptions.routeInfo.url}`);
    }
  };
}
