import { ErrorCode } from '@tessera/contracts';
import { AppError } from '@tessera/service-kit';
import type { CachedStatusList, StatusListCache } from '../state/status-list-cache.js';
import { findStatusList } from '../db/status-lists.js';
import type { StatusListDb } from '../db/types.js';
import { statusListNotFound } from '../domain/errors.js';

export interface ReadStatusListDeps {
  db: StatusListDb;
  cache: Pick<StatusListCache, 'get'>;
}

export interface ReadStatusListInput {
  /** Canonical (lowercase) list id. */
  id: string;
  /** `?time=`: a request for the list as it was then. */
  time?: string | undefined;
}

/** What serving the list needs: its bytes and their validators (the cached object itself). */
export type ReadStatusListResult = CachedStatusList;

/**
 * The current list, from this replica's memory within the cache's staleness bound,
 * else from the database (concurrent misses share one query). 501
 * HISTORY_NOT_SUPPORTED for `time`: the service keeps no history; 404 for an
 * unknown list. This is the hot path: nothing here beyond the cache lookup, and a
 * hit answers synchronously (no promise); a miss answers with a promise. Failures
 * are thrown either way (synchronously, or as the promise's rejection).
 */
export function readStatusList(
  deps: ReadStatusListDeps,
  input: ReadStatusListInput,
): ReadStatusListResult | Promise<ReadStatusListResult> {
  if (input.time !== undefined) {
    throw new AppError(
      501,
      ErrorCode.HISTORY_NOT_SUPPORTED,
      'This server keeps no history of status lists: omit the time parameter.',
    );
  }
  const found = deps.cache.get(input.id, async (id) => (await findStatusList(deps.db, id)) ?? null);
  if (found instanceof Promise) return found.then((list) => existingList(list, input.id));
  return existingList(found, input.id);
}

function existingList(list: CachedStatusList | null, id: string): CachedStatusList {
  if (!list) throw statusListNotFound(id);
  return list;
}
