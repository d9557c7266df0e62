// Cross-replica invalidation of the in-memory resolution cache through PostgreSQL
// LISTEN/NOTIFY: every replica empties its cache when any replica's write commits.
import type { Clock, Database } from '@tessera/service-kit';
import type { EcosystemDbSchema } from '../db/schema.js';
import { ResolutionCache } from './resolution-cache.js';

/** Notified by the statement triggers of migration 0002 when a write that resolutions read commits. */
export const CHANGE_CHANNEL = 'ecosystem_changed';

export interface OpenResolutionCacheOptions {
  database: Database<EcosystemDbSchema>;
  /** Longest reuse of a resolution (RESOLVE_CACHE_TTL_MS); 0 keeps nothing. */
  ttlMs: number;
  maxEntries?: number;
  /** The cache's clock (the app's). */
  clock: Clock;
}

export interface OpenedResolutionCache<T> {
  resolutions: ResolutionCache<T>;
  /** Stops listening (the cache itself holds no resource). */
  close(): Promise<void>;
}

/**
 * A resolution cache that forgets everything on each `ecosystem_changed` notification
 * (Postgres delivers it when the writing transaction commits) and whenever LISTEN
 * (re)starts, since notifications sent while it was not listening are lost.
 */
export async function openResolutionCache<T>(options: OpenResolutionCacheOptions): Promise<OpenedResolutionCache<T>> {
  const resolutions = new ResolutionCache<T>({
    ttlMs: options.ttlMs,
    maxEntries: options.maxEntries ?? 10_000,
    clock: options.clock,
  });
  const unlisten = await options.database.listen(
    CHANGE_CHANNEL,
    () => resolutions.clear(),
    () => resolutions.clear(),
  );
  return { resolutions, close: unlisten };
}
