import { inflateSync } from 'node:zlib';
import { STATUS_LIST_BITS, type ErrorDetail, type StatusListBits } from '@tessera/contracts';

/** What a valid status list token says about itself (draft-ietf-oauth-status-list §5.1). */
export interface StatusListClaims {
  sub: string;
  iat: number;
  exp?: number;
  ttl?: number;
  bits: StatusListBits;
  /** Inflated size of the status list in bytes. */
  listBytes: number;
}

export interface ValidateStatusListJwtOptions {
  /** The compact JWS as received; surrounding whitespace is ignored. */
  jwt: string;
  /** The list id: `sub` must end with `/status-lists/{id}`. */
  listId: string;
  /** Largest inflated list accepted; enforced while inflating. */
  maxListBytes: number;
}

export type ValidateStatusListJwtResult =
  { ok: true; jwt: string; claims: StatusListClaims } | { ok: false; problems: ErrorDetail[] };

const BASE64URL = /^[A-Za-z0-9_-]+$/;

/**
 * Checks the structure of a status list token. It does not verify the signature:
 * the service holds no issuer keys (verifiers do that). Each failed rule is one
 * problem whose `path` points into the token (`/header/typ`, `/payload/status_list/lst`).
 */
export function validateStatusListJwt(options: ValidateStatusListJwtOptions): ValidateStatusListJwtResult {
  const jwt = options.jwt.trim();
  const segments = jwt.split('.');
  if (segments.length !== 3) {
    return fail('/jwt', describeWrongShape(jwt, segments.length));
  }
  const [headerPart, payloadPart, signaturePart] = segments as [string, string, string];
  const problems: ErrorDetail[] = [];
  if (!signaturePart)
    problems.push({ path: '/signature', message: 'the signature segment is empty: the token must be signed' });
  else if (!BASE64URL.test(signaturePart))
    problems.push({ path: '/signature', message: 'the signature segment is not base64url' });

  const header = decodeJsonSegment(headerPart, '/header', problems);
  if (header) checkHeader(header, problems);
  const payload = decodeJsonSegment(payloadPart, '/payload', problems);
  const claims = payload ? checkPayload(payload, options, problems) : undefined;

  if (problems.length > 0 || !claims) return { ok: false, problems };
  return { ok: true, jwt, claims };
}

function fail(path: string, message: string): ValidateStatusListJwtResult {
  return { ok: false, problems: [{ path, message }] };
}

function describeWrongShape(jwt: string, count: number): string {
  if (count === 1 && looksLikeBase64WrappedJwt(jwt)) {
    return 'the value is a JWT wrapped in base64 once more: send the compact JWS itself (three base64url segments separated by dots)';
  }
  return `a compact JWS has three base64url segments separated by dots; this value has ${count}`;
}

function looksLikeBase64WrappedJwt(value: string): boolean {
  if (!/^[A-Za-z0-9+/_-]+={0,2}$/.test(value)) return false;
  const decoded = Buffer.from(value, 'base64').toString('utf8').trim();
  return decoded.startsWith('eyJ') && decoded.split('.').length === 3;
}

function decodeJsonSegment(
  segment: string,
  path: string,
  problems: ErrorDetail[],
): Record<string, unknown> | undefined {
  if (!segment || !BASE64URL.test(segment)) {
    problems.push({ path, message: `the ${path.slice(1)} segment is not base64url (no padding)` });
    return undefined;
  }
  try {
    const value: unknown = JSON.parse(Buffer.from(segment, 'base64url').toString('utf8'));
    if (value && typeof value === 'object' && !Array.isArray(value)) return value as Record<string, unknown>;
  } catch {
    // reported below
  }
  problems.push({ path, message: `the ${path.slice(1)} is not a JSON object` });
  return undefined;
}

function checkHeader(header: Record<string, unknown>, problems: ErrorDetail[]): void {
  if (header.typ !== 'statuslist+jwt') {
    problems.push({ path: '/header/typ', message: 'typ must be "statuslist+jwt"' });
  }
  if (typeof header.alg !== 'string' || header.alg.length === 0) {
    problems.push({ path: '/header/alg', message: 'alg must be a signature algorithm name' });
  } else if (header.alg.toLowerCase() === 'none') {
    problems.push({ path: '/header/alg', message: 'alg "none" is not allowed: status lists must be signed' });
  }
}

function isInteger(value: unknown): value is number {
  return typeof value === 'number' && Number.isSafeInteger(value);
}

function checkPayload(
  payload: Record<string, unknown>,
  options: ValidateStatusListJwtOptions,
  problems: ErrorDetail[],
): StatusListClaims | undefined {
  const before = problems.length;
  const { sub, iat, exp, ttl } = payload;
  if (typeof sub !== 'string' || sub.length === 0) {
    problems.push({ path: '/payload/sub', message: 'sub must be the URI of this status list' });
  } else if (!isUri(sub)) {
    problems.push({ path: '/payload/sub', message: 'sub must be an absolute URI' });
  } else if (!subjectNamesList(sub, options.listId)) {
    problems.push({ path: '/payload/sub', message: `sub must end with /status-lists/${options.listId.toLowerCase()}` });
  }
  if (!isInteger(iat) || iat < 0)
    problems.push({ path: '/payload/iat', message: 'iat must be a non-negative integer (seconds since the epoch)' });
  if (exp !== undefined) {
    if (!isInteger(exp))
      problems.push({ path: '/payload/exp', message: 'exp must be an integer (seconds since the epoch)' });
    else if (isInteger(iat) && exp <= iat)
      problems.push({ path: '/payload/exp', message: 'exp must be later than iat' });
  }
  if (ttl !== undefined && (!isInteger(ttl) || ttl <= 0)) {
    problems.push({ path: '/payload/ttl', message: 'ttl must be a positive integer (seconds)' });
  }
  const statusList = checkStatusList(payload.status_list, options.maxListBytes, problems);
  if (problems.length > before || !statusList) return undefined;
  return {
    sub: sub as string,
    iat: iat as number,
    ...(exp !== undefined ? { exp: exp as number } : {}),
    ...(ttl !== undefined ? { ttl: ttl as number } : {}),
    ...statusList,
  };
}

function isUri(value: string): boolean {
  try {
    return new URL(value).protocol.length > 1;
  } catch {
    return false;
  }
}

/** `sub` must name this list: its path ends with `/status-lists/{id}` (id compared case-insensitively). */
function subjectNamesList(sub: string, listId: string): boolean {
  const path = new URL(sub).pathname.toLowerCase();
  return path.endsWith(`/status-lists/${listId.toLowerCase()}`) && !new URL(sub).search && !new URL(sub).hash;
}

function checkStatusList(
  value: unknown,
  maxListBytes: number,
  problems: ErrorDetail[],
): { bits: StatusListBits; listBytes: number } | undefined {
  if (!value || typeof value !== 'object' || Array.isArray(value)) {
    problems.push({ path: '/payload/status_list', message: 'status_list must be an object with bits and lst' });
    return undefined;
  }
  const { bits, lst, aggregation_uri: aggregationUri } = value as Record<string, unknown>;
  const before = problems.length;
  if (!STATUS_LIST_BITS.includes(bits as StatusListBits)) {
    problems.push({ path: '/payload/status_list/bits', message: 'bits must be 1, 2, 4 or 8' });
  }
  if (aggregationUri !== undefined && (typeof aggregationUri !== 'string' || !isUri(aggregationUri))) {
    problems.push({ path: '/payload/status_list/aggregation_uri', message: 'aggregation_uri must be an absolute URI' });
  }
  const listBytes = typeof lst === 'string' ? inflateList(lst, maxListBytes, problems) : undefined;
  if (typeof lst !== 'string') problems.push({ path: '/payload/status_list/lst', message: 'lst must be a string' });
  if (problems.length > before || listBytes === undefined) return undefined;
  return { bits: bits as StatusListBits, listBytes };
}

/** Inflates `lst` with the cap enforced by zlib itself, so a compression bomb stops at the cap. */
function inflateList(lst: string, maxListBytes: number, problems: ErrorDetail[]): number | undefined {
  const path = '/payload/status_list/lst';
  if (!BASE64URL.test(lst)) {
    problems.push({ path, message: 'lst must be base64url without padding' });
    return undefined;
  }
  const compressed = Buffer.from(lst, 'base64url');
  let inflated: Buffer;
  try {
    inflated = inflateSync(compressed, { maxOutputLength: maxListBytes });
  } catch (error) {
    const tooLarge = (error as { code?: string }).code === 'ERR_BUFFER_TOO_LARGE' || error instanceof RangeError;
    problems.push({
      path,
      message: tooLarge
        ? `lst inflates to more than ${maxListBytes} bytes, the most this service accepts`
        : 'lst is not a zlib (RFC 1950) DEFLATE stream',
    });
    return undefined;
  }
  if (inflated.length === 0) {
    problems.push({ path, message: 'lst inflates to an empty list: it must hold at least one byte' });
    return undefined;
  }
  return inflated.length;
}
