import { ErrorCode } from '@tessera/contracts';
import { type AppError, badRequest, notFound } from '@tessera/service-kit';
import type { CachedStatusList, StatusListCache } from '../state/status-list-cache.js';
import { findStatusList } from '../db/status-lists.js';
import { findVersionValidAt } from '../db/status-list-versions.js';
import type { StatusListDb } from '../db/types.js';
import { historyNotSupported, statusListNotFound } from '../domain/errors.js';
import { parseHistoryTime, validAt } from '../domain/history-time.js';

export interface ReadStatusListDeps {
  db: StatusListDb;
  cache: Pick<StatusListCache, 'get'>;
  /** STATUS_LIST_HISTORY_DAYS > 0: `?time=` is answered from the kept versions (else 501). */
  keepHistory: boolean;
}

export interface ReadStatusListInput {
  /** Canonical (lowercase) list id. */
  id: string;
  /** `?time=`: a request for the list as it was then (unix seconds, as sent). */
  time?: string | undefined;
}

/** What serving the list needs: its bytes and their validators (the cached object itself). */
export type ReadStatusListResult = CachedStatusList;

/**
 * The current list, from this replica's memory within the cache's staleness bound,
 * else from the database (concurrent misses share one query); 404 for an unknown
 * list. This is the hot path: nothing here beyond the cache lookup, and a hit answers
 * synchronously (no promise); a miss answers with a promise. Failures are thrown
 * either way (synchronously, or as the promise's rejection).
 *
 * With `time`, the version valid then (see `readStatusListAt`), always with a promise.
 */
export function readStatusList(
  deps: ReadStatusListDeps,
  input: ReadStatusListInput,
): ReadStatusListResult | Promise<ReadStatusListResult> {
  if (input.time !== undefined) {
    if (!deps.keepHistory) throw historyNotSupported();
    const time = parseHistoryTime(input.time);
    if (time === undefined) throw invalidHistoryTime();
    return readStatusListAt(deps.db, input.id, time);
  }
  const found = deps.cache.get(input.id, async (id) => (await findStatusList(deps.db, id)) ?? null);
  if (found instanceof Promise) return found.then((list) => existingList(list, input.id));
  return existingList(found, input.id);
}

function existingList(list: CachedStatusList | null, id: string): CachedStatusList {
  if (!list) throw statusListNotFound(id);
  return list;
}

/**
 * The token a list held that was valid at `time` (draft-ietf-oauth-status-list,
 * Historical Resolution): of the current token and the kept versions, the newest whose
 * `iat` ≤ time and whose `exp`, when present, lies after it (`ttl` is a caching hint
 * and bounds nothing). The current token is the newest of all (an update never goes
 * back in `iat`), so it answers whenever it qualifies; otherwise the newest qualifying
 * version does. 404 for an unknown list, 404 NO_STATUS_AT_TIME when none qualifies.
 * Read from the database each time (history is not on the hot path).
 */
async function readStatusListAt(db: StatusListDb, id: string, time: number): Promise<CachedStatusList> {
  const current = await findStatusList(db, id);
  if (!current) throw statusListNotFound(id);
  if (validAt(current, time)) return current;
  const version = await findVersionValidAt(db, id, time);
  if (!version) throw noStatusAtTime(id, time);
  return {
    jwt: version.jwt,
    cwt: version.cwt,
    etag: version.etag,
    ttl: version.ttl,
    exp: version.exp,
    updatedAt: version.writtenAt,
  };
}

// Refusals of a history request (`?time=`), which only this operation makes.

/** 400 VALIDATION_FAILED: `time` is not a unix timestamp. */
function invalidHistoryTime(): AppError {
  return badRequest('The time parameter must be a unix timestamp: whole seconds since the epoch, e.g. 1686925000.', [
    { path: '/time', message: 'query parameter /time must be whole seconds since the epoch (decimal digits only)' },
  ]);
}

/** 404 NO_STATUS_AT_TIME: no kept version of the list was valid at that time. */
function noStatusAtTime(listId: string, time: number): AppError {
  // Dates end at ±8.64e15 ms: a later time is named in seconds only.
  const date = time * 1000 <= 8.64e15 ? ` (${new Date(time * 1000).toISOString()})` : '';
  return notFound(
    `No version of status list ${listId} kept here was valid at ${time}${date}: it was issued later, had expired, or its history was pruned.`,
    ErrorCode.NO_STATUS_AT_TIME,
  );
}
