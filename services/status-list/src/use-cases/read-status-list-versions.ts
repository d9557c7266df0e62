import type { PageOf } from '@tessera/contracts';
import { findStatusList } from '../db/status-lists.js';
import { countVersions, listVersions } from '../db/status-list-versions.js';
import type { StatusListDb } from '../db/types.js';
import { historyNotSupported, statusListNotFound } from '../domain/errors.js';

/** One version: a kept one, or the current token (never replaced: `supersededAt` null). */
export interface StatusListVersionEntry {
  iat: number;
  exp: number | null;
  ttl: number | null;
  etag: string;
  /** When it became the current token. */
  writtenAt: Date;
  supersededAt: Date | null;
}

export interface ReadStatusListVersionsDeps {
  db: StatusListDb;
  /** STATUS_LIST_HISTORY_DAYS > 0 (else 501, as `?time=`). */
  keepHistory: boolean;
}

/**
 * A page of a list's versions, newest first: the current token (the first entry of the
 * first page), then each kept one, the most recently replaced first — with their `iat`,
 * `exp`, `ttl`, ETag, and when each became current and was replaced. 404 for an unknown
 * list, 501 HISTORY_NOT_SUPPORTED when no history is kept. Read from the database.
 */
export async function readStatusListVersions(
  deps: ReadStatusListVersionsDeps,
  input: { id: string; pageNumber: number; pageSize: number },
): Promise<PageOf<StatusListVersionEntry>> {
  if (!deps.keepHistory) throw historyNotSupported();
  const current = await findStatusList(deps.db, input.id);
  if (!current) throw statusListNotFound(input.id);
  const offset = (input.pageNumber - 1) * input.pageSize;
  // The current token is entry 0; kept versions follow it.
  const includesCurrent = offset === 0;
  const [kept, keptCount] = await Promise.all([
    listVersions(deps.db, input.id, {
      offset: Math.max(0, offset - 1),
      limit: input.pageSize - (includesCurrent ? 1 : 0),
    }),
    countVersions(deps.db, input.id),
  ]);
  const totalItems = keptCount + 1;
  return {
    totalItems,
    totalPages: Math.ceil(totalItems / input.pageSize),
    page: input.pageNumber,
    pageSize: input.pageSize,
    data: [...(includesCurrent ? [{ ...current, writtenAt: current.updatedAt, supersededAt: null }] : []), ...kept],
  };
}
