import { inflateSync } from 'node:zlib';
import { STATUS_LIST_BITS, type ErrorDetail, type StatusListBits } from '@tessera/contracts';

// The claim rules a status list token obeys whatever its form (draft-ietf-oauth-status-list,
// Status List Token in JWT and in CWT Format): one rule, one message, applied alike to the
// JSON claims of a JWT and the CBOR claims of a CWT. Each form names its claims and points
// at them its own way (`sub` at /payload/sub in a JWT, `sub (2)` at /payload/2 in a CWT).

/** What a valid status list token says about itself, in either form. */
export interface StatusListClaims {
  sub: string;
  iat: number;
  exp?: number;
  ttl?: number;
  bits: StatusListBits;
  /** Inflated size of the status list in bytes. */
  listBytes: number;
}

/** What the rules need beyond the token: the list it is for and the inflation cap. */
export interface StatusListRuleOptions {
  /** The list id: `sub` must end with `/status-lists/{id}`. */
  listId: string;
  /** Largest inflated list accepted (MAX_LIST_BYTES); enforced while inflating. */
  maxListBytes: number;
}

/** Where a claim is in the token (a JSON Pointer for `details`) and how messages name it. */
export interface ClaimLabel {
  path: string;
  name: string;
}

export interface TokenClaimLabels {
  sub: ClaimLabel;
  iat: ClaimLabel;
  exp: ClaimLabel;
  ttl: ClaimLabel;
}

/** The claims as the token carries them, not yet checked (absent ones undefined). */
export interface TokenClaimValues {
  sub?: unknown;
  iat?: unknown;
  exp?: unknown;
  ttl?: unknown;
}

function isInteger(value: unknown): value is number {
  return typeof value === 'number' && Number.isSafeInteger(value);
}

export function isAbsoluteUri(value: string): boolean {
  try {
    return new URL(value).protocol.length > 1;
  } catch {
    return false;
  }
}

/** `sub` must name this list: its path ends with `/status-lists/{id}` (id compared case-insensitively). */
function subjectNamesList(sub: string, listId: string): boolean {
  const url = new URL(sub);
  return url.pathname.toLowerCase().endsWith(`/status-lists/${listId.toLowerCase()}`) && !url.search && !url.hash;
}

/**
 * `sub` (the URI of this list), `iat`, optional `exp` (after `iat`) and optional `ttl`
 * (positive). Answers the values when every rule holds; otherwise adds one problem per
 * broken rule and answers undefined.
 */
export function checkTokenClaims(
  values: TokenClaimValues,
  labels: TokenClaimLabels,
  listId: string,
  problems: ErrorDetail[],
): Pick<StatusListClaims, 'sub' | 'iat' | 'exp' | 'ttl'> | undefined {
  const before = problems.length;
  const { sub, iat, exp, ttl } = values;
  if (typeof sub !== 'string' || sub.length === 0) {
    problems.push({ path: labels.sub.path, message: `${labels.sub.name} must be the URI of this status list` });
  } else if (!isAbsoluteUri(sub)) {
    problems.push({ path: labels.sub.path, message: `${labels.sub.name} must be an absolute URI` });
  } else if (!subjectNamesList(sub, listId)) {
    problems.push({
      path: labels.sub.path,
      message: `${labels.sub.name} must end with /status-lists/${listId.toLowerCase()}`,
    });
  }
  if (!isInteger(iat) || iat < 0)
    problems.push({
      path: labels.iat.path,
      message: `${labels.iat.name} must be a non-negative integer (seconds since the epoch)`,
    });
  if (exp !== undefined) {
    if (!isInteger(exp))
      problems.push({
        path: labels.exp.path,
        message: `${labels.exp.name} must be an integer (seconds since the epoch)`,
      });
    else if (isInteger(iat) && exp <= iat)
      problems.push({ path: labels.exp.path, message: `${labels.exp.name} must be later than ${labels.iat.name}` });
  }
  if (ttl !== undefined && (!isInteger(ttl) || ttl <= 0)) {
    problems.push({ path: labels.ttl.path, message: `${labels.ttl.name} must be a positive integer (seconds)` });
  }
  if (problems.length > before) return undefined;
  return {
    sub: sub as string,
    iat: iat as number,
    ...(exp !== undefined ? { exp: exp as number } : {}),
    ...(ttl !== undefined ? { ttl: ttl as number } : {}),
  };
}

/** `bits` ∈ {1, 2, 4, 8}. */
export function checkBits(bits: unknown, label: ClaimLabel, problems: ErrorDetail[]): StatusListBits | undefined {
  if (STATUS_LIST_BITS.includes(bits as StatusListBits)) return bits as StatusListBits;
  problems.push({ path: label.path, message: `${label.name} must be 1, 2, 4 or 8` });
  return undefined;
}

/** Optional `aggregation_uri`: an absolute URI when present. */
export function checkAggregationUri(value: unknown, label: ClaimLabel, problems: ErrorDetail[]): void {
  if (value !== undefined && (typeof value !== 'string' || !isAbsoluteUri(value))) {
    problems.push({ path: label.path, message: `${label.name} must be an absolute URI` });
  }
}

/**
 * Inflates the compressed list with the cap enforced by zlib itself, so a compression
 * bomb stops at the cap; answers the inflated size (at least one byte).
 */
export function inflateList(
  compressed: Uint8Array,
  maxListBytes: number,
  label: ClaimLabel,
  problems: ErrorDetail[],
): number | undefined {
  let inflated: Buffer;
  try {
    inflated = inflateSync(compressed, { maxOutputLength: maxListBytes });
  } catch (error) {
    const tooLarge = (error as { code?: string }).code === 'ERR_BUFFER_TOO_LARGE' || error instanceof RangeError;
    problems.push({
      path: label.path,
      message: tooLarge
        ? `${label.name} inflates to more than ${maxListBytes} bytes, the most this service accepts`
        : `${label.name} is not a zlib (RFC 1950) DEFLATE stream`,
    });
    return undefined;
  }
  if (inflated.length === 0) {
    problems.push({
      path: label.path,
      message: `${label.name} inflates to an empty list: it must hold at least one byte`,
    });
    return undefined;
  }
  return inflated.length;
}
