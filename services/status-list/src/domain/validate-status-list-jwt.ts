import type { ErrorDetail, StatusListBits } from '@tessera/contracts';
import {
  checkAggregationUri,
  checkBits,
  checkTokenClaims,
  inflateList,
  type StatusListClaims,
  type StatusListRuleOptions,
} from './status-list-claim-rules.js';

export interface ValidateStatusListJwtOptions extends StatusListRuleOptions {
  /** The compact JWS as received; surrounding whitespace is ignored. */
  jwt: string;
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

const JWT_CLAIMS = {
  sub: { path: '/payload/sub', name: 'sub' },
  iat: { path: '/payload/iat', name: 'iat' },
  exp: { path: '/payload/exp', name: 'exp' },
  ttl: { path: '/payload/ttl', name: 'ttl' },
};
const BITS = { path: '/payload/status_list/bits', name: 'bits' };
const LST = { path: '/payload/status_list/lst', name: 'lst' };
const AGGREGATION_URI = { path: '/payload/status_list/aggregation_uri', name: 'aggregation_uri' };

function checkPayload(
  payload: Record<string, unknown>,
  options: ValidateStatusListJwtOptions,
  problems: ErrorDetail[],
): StatusListClaims | undefined {
  const claims = checkTokenClaims(payload, JWT_CLAIMS, options.listId, problems);
  const statusList = checkStatusList(payload.status_list, options.maxListBytes, problems);
  if (!claims || !statusList) return undefined;
  return { ...claims, ...statusList };
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
  const checkedBits = checkBits(bits, BITS, problems);
  checkAggregationUri(aggregationUri, AGGREGATION_URI, problems);
  let listBytes: number | undefined;
  if (typeof lst !== 'string') problems.push({ path: LST.path, message: 'lst must be a string' });
  else if (!BASE64URL.test(lst)) problems.push({ path: LST.path, message: 'lst must be base64url without padding' });
  else listBytes = inflateList(Buffer.from(lst, 'base64url'), maxListBytes, LST, problems);
  if (problems.length > before || checkedBits === undefined || listBytes === undefined) return undefined;
  return { bits: checkedBits, listBytes };
}
