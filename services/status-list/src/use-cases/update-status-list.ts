import { conflict, type Clock } from '@tessera/service-kit';
import type { StatusListCache } from '../state/status-list-cache.js';
import type { StatusListRow } from '../db/schema.js';
import { findStatusListForUpdate, replaceStatusListToken } from '../db/status-lists.js';
import type { StatusListDb } from '../db/types.js';
import { checkUpdate } from '../domain/check-update.js';
import { computeEtag } from '../domain/http-caching.js';
import { validateStatusListJwt } from '../domain/validate-status-list-jwt.js';
import { invalidStatusListJwt, statusListNotFound } from '../domain/errors.js';

export interface UpdateStatusListDeps {
  db: StatusListDb;
  cache: Pick<StatusListCache, 'set'>;
  /** Largest inflated list accepted (MAX_LIST_BYTES). */
  maxListBytes: number;
  /** The list's new `updatedAt`. */
  clock: Clock;
}

export interface UpdateStatusListInput {
  /** Canonical (lowercase) list id. */
  id: string;
  /** The compact JWS as received. */
  jwt: string;
}

/** The list as stored after the update. */
export type UpdateStatusListResult = StatusListRow;

/**
 * Replaces a list with a newer token of the same list: 400 INVALID_STATUS_LIST_JWT,
 * 404 for an unknown list, 409 BITS_MISMATCH / SUBJECT_MISMATCH / STALE_UPDATE (see
 * `checkUpdate`). The stored row is locked while it is compared and replaced, so
 * concurrent updates take turns: none is lost and the newest token wins whatever the
 * arrival order. This replica serves the new list once the update has committed.
 */
export async function updateStatusList(
  deps: UpdateStatusListDeps,
  input: UpdateStatusListInput,
): Promise<UpdateStatusListResult> {
  const { id } = input;
  const jwt = input.jwt.trim();
  const validation = validateStatusListJwt({ jwt, listId: id, maxListBytes: deps.maxListBytes });
  if (!validation.ok) throw invalidStatusListJwt(validation.problems);
  const claims = validation.claims;
  const row = await deps.db.transaction(async (tx) => {
    const stored = await findStatusListForUpdate(tx, id);
    if (!stored) throw statusListNotFound(id);
    const check = checkUpdate(stored, claims);
    if (!check.ok) throw conflict(check.code, check.message);
    return replaceStatusListToken(tx, id, {
      jwt,
      etag: computeEtag(jwt),
      iat: claims.iat,
      exp: claims.exp,
      ttl: claims.ttl,
      at: deps.clock(),
    });
  });
  deps.cache.set(id, row);
  return row;
}
