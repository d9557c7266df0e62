import { ErrorCode, STATUS_LIST_MEDIA_TYPES, type StatusListFormat } from '@tessera/contracts';
import { badRequest, conflict, type AppError, type Clock } from '@tessera/service-kit';
import type { StatusListCache } from '../state/status-list-cache.js';
import type { StatusListRow } from '../db/schema.js';
import { findStatusListForUpdate, replaceStatusListToken } from '../db/status-lists.js';
import type { StatusListDb } from '../db/types.js';
import { checkUpdate } from '../domain/check-update.js';
import { computeEtag } from '../domain/http-caching.js';
import { invalidStatusListToken, statusListNotFound } from '../domain/errors.js';
import {
  formatOfStored,
  formatOfSubmitted,
  servedValue,
  validateSubmittedToken,
  type SubmittedToken,
} from '../domain/status-list-token.js';

export interface UpdateStatusListDeps {
  db: StatusListDb;
  cache: Pick<StatusListCache, 'set'>;
  /** Largest inflated list accepted (MAX_LIST_BYTES). */
  maxListBytes: number;
  /** STATUS_LIST_HISTORY_DAYS > 0: the token an update replaces is kept as a version. */
  keepHistory: boolean;
  /** The list's new `updatedAt`, and when the token it replaces stopped being current. */
  clock: Clock;
}

/** The list and its newer token, in the list's form: `jwt` or `cwt` (base64url), as received. */
export type UpdateStatusListInput = SubmittedToken & {
  /** Canonical (lowercase) list id. */
  id: string;
};

/** The list as stored after the update. */
export type UpdateStatusListResult = StatusListRow;

/**
 * Replaces a list with a newer token of the same list: 400 INVALID_STATUS_LIST_JWT /
 * INVALID_STATUS_LIST_CWT, 404 for an unknown list, 400 FORMAT_MISMATCH for a token in
 * the other form, 409 BITS_MISMATCH / SUBJECT_MISMATCH / STALE_UPDATE (see
 * `checkUpdate`). The stored row is locked while it is compared and replaced, so
 * concurrent updates take turns: none is lost and the newest token wins whatever the
 * arrival order. With history kept, the replacing statement also archives the token
 * it replaces (not when the same token is sent again). This replica serves the new
 * list once the update has committed.
 */
export async function updateStatusList(
  deps: UpdateStatusListDeps,
  input: UpdateStatusListInput,
): Promise<UpdateStatusListResult> {
  const { id } = input;
  const validation = validateSubmittedToken(input, { listId: id, maxListBytes: deps.maxListBytes });
  if (!validation.ok) throw invalidStatusListToken(validation.format, validation.problems);
  const { token, claims } = validation;
  const etag = computeEtag(servedValue(token));
  const row = await deps.db.transaction(async (tx) => {
    const stored = await findStatusListForUpdate(tx, id);
    if (!stored) throw statusListNotFound(id);
    if (formatOfStored(stored) !== formatOfSubmitted(input))
      throw formatMismatch(formatOfStored(stored), formatOfSubmitted(input));
    const check = checkUpdate(stored, claims);
    if (!check.ok) throw conflict(check.code, check.message);
    return replaceStatusListToken(
      tx,
      id,
      { ...token, etag, iat: claims.iat, exp: claims.exp, ttl: claims.ttl, at: deps.clock() },
      { archive: deps.keepHistory && stored.etag !== etag },
    );
  });
  deps.cache.set(id, row);
  return row;
}

/** 400 FORMAT_MISMATCH: a list keeps the form it was created in. */
function formatMismatch(stored: StatusListFormat, sent: StatusListFormat): AppError {
  return badRequest(
    `This list was created as ${STATUS_LIST_MEDIA_TYPES[stored]} and keeps that form: send its update as ${stored}, not ${sent}.`,
    [{ path: `/${sent}`, message: `this list takes ${stored}` }],
    ErrorCode.FORMAT_MISMATCH,
  );
}
