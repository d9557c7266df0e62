import { ErrorCode } from '@tessera/contracts';
import { conflict, type Clock } from '@tessera/service-kit';
import type { StatusListCache } from '../state/status-list-cache.js';
import type { StatusListRow } from '../db/schema.js';
import { insertStatusList } from '../db/status-lists.js';
import type { StatusListDb } from '../db/types.js';
import { computeEtag } from '../domain/http-caching.js';
import { validateStatusListJwt } from '../domain/validate-status-list-jwt.js';
import { invalidStatusListJwt } from '../domain/errors.js';

export interface CreateStatusListDeps {
  db: StatusListDb;
  cache: Pick<StatusListCache, 'set'>;
  /** Largest inflated list accepted (MAX_LIST_BYTES). */
  maxListBytes: number;
  /** The list's `createdAt` and `updatedAt`. */
  clock: Clock;
}

export interface CreateStatusListInput {
  /** A UUID v4 in either case (the body schema checked it). */
  id: string;
  /** The compact JWS as received. */
  jwt: string;
}

/** The stored list. */
export type CreateStatusListResult = StatusListRow;

/**
 * Stores a new issuer-signed list under a fresh id: 400 INVALID_STATUS_LIST_JWT for
 * a token that breaks a rule, 409 STATUS_LIST_EXISTS when the id is taken (the first
 * list stays). The id is kept in canonical lowercase and the JWT byte for byte
 * (surrounding whitespace trimmed); created and updated now, by `clock`. This replica
 * serves the new list at once.
 */
export async function createStatusList(
  deps: CreateStatusListDeps,
  input: CreateStatusListInput,
): Promise<CreateStatusListResult> {
  const id = input.id.toLowerCase();
  const jwt = input.jwt.trim();
  const validation = validateStatusListJwt({ jwt, listId: id, maxListBytes: deps.maxListBytes });
  if (!validation.ok) throw invalidStatusListJwt(validation.problems);
  const { bits, sub, iat, exp, ttl } = validation.claims;
  const row = await insertStatusList(deps.db, {
    id,
    jwt,
    etag: computeEtag(jwt),
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
  return row;
}
