import { ErrorCode } from '@tessera/contracts';
import { conflict, type Clock } from '@tessera/service-kit';
import type { AggregationCache } from '../state/aggregation-cache.js';
import type { StatusListCache } from '../state/status-list-cache.js';
import type { StatusListRow } from '../db/schema.js';
import { insertStatusList } from '../db/status-lists.js';
import type { StatusListDb } from '../db/types.js';
import { invalidStatusListToken } from '../domain/errors.js';
import { computeEtag } from '../domain/http-caching.js';
import { servedValue, validateSubmittedToken, type SubmittedToken } from '../domain/status-list-token.js';

export interface CreateStatusListDeps {
  db: StatusListDb;
  cache: Pick<StatusListCache, 'set'>;
  /** The aggregation this replica serves: a new list is in it from the next read. */
  aggregation: Pick<AggregationCache, 'invalidate'>;
  /** Largest inflated list accepted (MAX_LIST_BYTES). */
  maxListBytes: number;
  /** The list's `createdAt` and `updatedAt`. */
  clock: Clock;
}

/** The id and the token in its form: `jwt` (the compact JWS) or `cwt` (base64url of the CWT bytes), as received. */
export type CreateStatusListInput = SubmittedToken & {
  /** A UUID v4 in either case (the body schema checked it). */
  id: string;
};

/** The stored list. */
export type CreateStatusListResult = StatusListRow;

/**
 * Stores a new issuer-signed list under a fresh id, in the form it is sent in: 400
 * INVALID_STATUS_LIST_JWT / INVALID_STATUS_LIST_CWT for a token that breaks a rule,
 * 409 STATUS_LIST_EXISTS when the id is taken (the first list stays). The id is kept
 * in canonical lowercase, the JWT byte for byte (surrounding whitespace trimmed), the
 * CWT as its bytes; created and updated now, by `clock`. One statement: a new list has
 * no history yet (its token is its row). This replica serves the new list, and lists
 * it in the aggregation, at once.
 */
export async function createStatusList(
  deps: CreateStatusListDeps,
  input: CreateStatusListInput,
): Promise<CreateStatusListResult> {
  const id = input.id.toLowerCase();
  const validation = validateSubmittedToken(input, { listId: id, maxListBytes: deps.maxListBytes });
  if (!validation.ok) throw invalidStatusListToken(validation.format, validation.problems);
  const { token, claims } = validation;
  const { bits, sub, iat, exp, ttl } = claims;
  const row = await insertStatusList(deps.db, {
    ...token,
    id,
    etag: computeEtag(servedValue(token)),
    bits,
    sub,
    iat,
    exp,
    ttl,
    at: deps.clock(),
  });
  if (!row)
    throw conflict(ErrorCode.STATUS_LIST_EXISTS, `A status list with id ${id} exists already; use PATCH to update it.`);
  deps.cache.set(id, row);
  deps.aggregation.invalidate();
  return row;
}
