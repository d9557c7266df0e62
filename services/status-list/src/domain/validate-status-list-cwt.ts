import { decode, Tag, type DecodeOptions } from 'cbor2';
import { STATUS_LIST_CWT_MEDIA_TYPE, StatusListCwt, type ErrorDetail, type StatusListBits } from '@tessera/contracts';
import {
  checkAggregationUri,
  checkBits,
  checkTokenClaims,
  inflateList,
  type StatusListClaims,
  type StatusListRuleOptions,
} from './status-list-claim-rules.js';

export interface ValidateStatusListCwtOptions extends StatusListRuleOptions {
  /** base64url (no padding) of the CWT's bytes, as received; surrounding whitespace is ignored. */
  cwt: string;
}

export type ValidateStatusListCwtResult =
  { ok: true; cwt: Buffer; claims: StatusListClaims } | { ok: false; problems: ErrorDetail[] };

const { COSE_SIGN1_TAG, CWT_TAG, header: HEADER, claim: CLAIM } = StatusListCwt;
const COSE_MAC0_TAG = 17;
const BASE64URL = /^[A-Za-z0-9_-]+$/;

/**
 * Strict CBOR: a map with a label twice is refused (RFC 9052 §3: a COSE map must not
 * repeat a label; two readers could otherwise take different values), so is anything
 * after the item; maps come back as Maps whatever their keys; nesting is bounded.
 */
const CBOR_OPTIONS: DecodeOptions = { rejectDuplicateKeys: true, preferMap: true, maxDepth: 32 };

const CWT_CLAIMS = {
  sub: { path: `/payload/${CLAIM.SUB}`, name: `sub (${CLAIM.SUB})` },
  iat: { path: `/payload/${CLAIM.IAT}`, name: `iat (${CLAIM.IAT})` },
  exp: { path: `/payload/${CLAIM.EXP}`, name: `exp (${CLAIM.EXP})` },
  ttl: { path: `/payload/${CLAIM.TTL}`, name: `ttl (${CLAIM.TTL})` },
};
const STATUS_LIST_PATH = `/payload/${CLAIM.STATUS_LIST}`;
const BITS = { path: `${STATUS_LIST_PATH}/bits`, name: 'bits' };
const LST = { path: `${STATUS_LIST_PATH}/lst`, name: 'lst' };
const AGGREGATION_URI = { path: `${STATUS_LIST_PATH}/aggregation_uri`, name: 'aggregation_uri' };

/**
 * Checks the structure of a Status List Token in CWT form (draft-ietf-oauth-status-list,
 * Status List Token in CWT Format), rule for rule as `validateStatusListJwt` checks the JWT
 * form: a COSE_Sign1_Tagged (tag 18, not wrapped in the CWT tag 61) with a non-empty
 * signature; a protected header with `typ` (16) `application/statuslist+cwt` and an
 * algorithm (1); a payload of CWT claims with `sub` (2) naming this list, `iat` (6),
 * optional `exp` (4) after `iat`, optional positive `ttl` (65534) and the status list
 * (65533) `{ bits ∈ {1,2,4,8}, lst: zlib bytes, aggregation_uri? }`. It does not verify
 * the signature: the service holds no issuer keys (verifiers do that). Each failed rule
 * is one problem whose `path` points into the token (`/protected/16`, `/payload/65533/lst`).
 */
export function validateStatusListCwt(options: ValidateStatusListCwtOptions): ValidateStatusListCwtResult {
  const text = options.cwt.trim();
  if (!BASE64URL.test(text)) return fail('/cwt', describeNotBase64url(text));
  const bytes = Buffer.from(text, 'base64url');
  const decoded = decodeCbor(bytes);
  if (!decoded.ok)
    return fail(
      '/cwt',
      `${looksLikeHex(text) ? 'the value looks like hex: send the CWT bytes as base64url; ' : ''}the value is not one well-formed CBOR item (${decoded.reason})`,
    );
  const sign1 = unwrapSign1(decoded.value);
  if (typeof sign1 === 'string')
    return fail(
      '/cwt',
      looksLikeHex(text) ? `the value looks like hex: send the CWT bytes as base64url (${sign1})` : sign1,
    );

  const problems: ErrorDetail[] = [];
  const [protectedBytes, unprotected, payloadBytes, signature] = sign1;
  if (!(signature instanceof Uint8Array))
    problems.push({ path: '/signature', message: 'the signature must be a byte string' });
  else if (signature.length === 0)
    problems.push({ path: '/signature', message: 'the signature is empty: the token must be signed' });

  const unprotectedHeader = unprotected instanceof Map ? unprotected : undefined;
  if (!unprotectedHeader) problems.push({ path: '/unprotected', message: 'the unprotected header must be a map' });
  const protectedHeader = decodeMapIn(protectedBytes, '/protected', 'protected header', problems, true);
  if (protectedHeader) checkProtectedHeader(protectedHeader, unprotectedHeader, problems);

  let claims: StatusListClaims | undefined;
  if (payloadBytes === null) {
    problems.push({ path: '/payload', message: 'the payload is detached (nil): the CWT claims must be in the token' });
  } else {
    const payload = decodeMapIn(payloadBytes, '/payload', 'payload', problems, false);
    if (payload) claims = checkPayload(payload, options, problems);
  }
  if (problems.length > 0 || !claims) return { ok: false, problems };
  return { ok: true, cwt: bytes, claims };
}

function fail(path: string, message: string): ValidateStatusListCwtResult {
  return { ok: false, problems: [{ path, message }] };
}

function describeNotBase64url(text: string): string {
  if (text.length === 0) return 'the value is empty';
  if (/^[A-Za-z0-9+/_-]+={0,2}$/.test(text))
    return 'cwt must be base64url without padding (RFC 4648 §5: - and _ for + and /, no trailing =)';
  return 'cwt must be the base64url (no padding) of the CWT bytes';
}

/** Hex of a tagged COSE_Sign1 starts with d284: a common mistake, worth naming. */
function looksLikeHex(text: string): boolean {
  return /^[0-9a-fA-F]+$/.test(text) && text.length % 2 === 0 && /^d2(84|9f)/i.test(text);
}

type Decoded = { ok: true; value: unknown } | { ok: false; reason: string };

function decodeCbor(bytes: Uint8Array): Decoded {
  if (bytes.length === 0) return { ok: false, reason: 'no bytes' };
  try {
    return { ok: true, value: decode(bytes, CBOR_OPTIONS) };
  } catch (error) {
    // Running off the end shows as a DataView RangeError or cbor2's own message: say it plainly.
    const truncated =
      error instanceof RangeError || (error instanceof Error && error.message.startsWith('Unexpected end'));
    if (truncated) return { ok: false, reason: 'the bytes end before the item does' };
    return { ok: false, reason: error instanceof Error ? error.message.slice(0, 200) : 'undecodable' };
  }
}

/** The four members of the COSE_Sign1, or why the item is not one. */
function unwrapSign1(item: unknown): [unknown, unknown, unknown, unknown] | string {
  if (item instanceof Tag) {
    if (item.tag === CWT_TAG)
      return 'the token is wrapped in the CWT tag (61), which a Status List Token must not carry: send the COSE_Sign1_Tagged (tag 18) itself';
    if (item.tag === COSE_MAC0_TAG)
      return 'a COSE_Mac0 (tag 17) is not accepted: a published status list must be signed (COSE_Sign1, tag 18) so that verifiers can check it without a shared key';
    if (item.tag !== COSE_SIGN1_TAG)
      return `the token is tagged ${String(item.tag)}: a Status List Token in CWT form is a COSE_Sign1_Tagged (CBOR tag 18)`;
    const contents: unknown = item.contents;
    if (!Array.isArray(contents) || contents.length !== 4)
      return 'the COSE_Sign1 must be an array of four members: protected header, unprotected header, payload, signature';
    return contents as [unknown, unknown, unknown, unknown];
  }
  if (Array.isArray(item) && item.length === 4)
    return 'the COSE_Sign1 is not tagged: a Status List Token in CWT form must be the tagged COSE_Sign1 (CBOR tag 18)';
  return 'the value is not a COSE_Sign1 (a CBOR array of four members under tag 18)';
}

/** A byte string holding one CBOR map (a header or the claims); an empty protected header is an empty map. */
function decodeMapIn(
  value: unknown,
  path: string,
  what: string,
  problems: ErrorDetail[],
  emptyIsEmptyMap: boolean,
): Map<unknown, unknown> | undefined {
  if (!(value instanceof Uint8Array)) {
    problems.push({ path, message: `the ${what} must be a byte string holding a CBOR map` });
    return undefined;
  }
  // RFC 9052 §3: a protected header with no parameters is the empty byte string.
  if (value.length === 0 && emptyIsEmptyMap) return new Map();
  const decoded = decodeCbor(value);
  if (decoded.ok && decoded.value instanceof Map) return decoded.value;
  problems.push({
    path,
    message: decoded.ok ? `the ${what} is not a CBOR map` : `the ${what} is not well-formed CBOR (${decoded.reason})`,
  });
  return undefined;
}

function checkProtectedHeader(
  header: Map<unknown, unknown>,
  unprotected: Map<unknown, unknown> | undefined,
  problems: ErrorDetail[],
): void {
  const typ = header.get(HEADER.TYP);
  if (typ !== STATUS_LIST_CWT_MEDIA_TYPE) {
    problems.push({
      path: `/protected/${HEADER.TYP}`,
      message:
        typ === undefined && unprotected?.get(HEADER.TYP) !== undefined
          ? `typ (16) must be in the protected header, as "${STATUS_LIST_CWT_MEDIA_TYPE}"`
          : `typ (16) must be "${STATUS_LIST_CWT_MEDIA_TYPE}"`,
    });
  }
  const alg = header.get(HEADER.ALG);
  if (typeof alg === 'string' && alg.toLowerCase() === 'none') {
    problems.push({
      path: `/protected/${HEADER.ALG}`,
      message: 'alg (1) "none" is not allowed: status lists must be signed',
    });
    return;
  }
  const named =
    (typeof alg === 'number' && Number.isSafeInteger(alg) && alg !== 0) || (typeof alg === 'string' && alg.length > 0);
  if (!named) {
    problems.push({
      path: `/protected/${HEADER.ALG}`,
      message:
        alg === undefined && unprotected?.get(HEADER.ALG) !== undefined
          ? 'alg (1) must be in the protected header, where the signature covers it'
          : 'alg (1) must name a signature algorithm (a COSE algorithm integer or name)',
    });
  }
}

function checkPayload(
  payload: Map<unknown, unknown>,
  options: ValidateStatusListCwtOptions,
  problems: ErrorDetail[],
): StatusListClaims | undefined {
  const claims = checkTokenClaims(
    {
      sub: payload.get(CLAIM.SUB),
      iat: payload.get(CLAIM.IAT),
      exp: payload.get(CLAIM.EXP),
      ttl: payload.get(CLAIM.TTL),
    },
    CWT_CLAIMS,
    options.listId,
    problems,
  );
  const statusList = checkStatusList(payload.get(CLAIM.STATUS_LIST), options.maxListBytes, problems);
  if (!claims || !statusList) return undefined;
  return { ...claims, ...statusList };
}

function checkStatusList(
  value: unknown,
  maxListBytes: number,
  problems: ErrorDetail[],
): { bits: StatusListBits; listBytes: number } | undefined {
  if (!(value instanceof Map)) {
    problems.push({
      path: STATUS_LIST_PATH,
      message: `the status list (${CLAIM.STATUS_LIST}) must be a map with bits and lst`,
    });
    return undefined;
  }
  const before = problems.length;
  const bits = checkBits(value.get('bits'), BITS, problems);
  checkAggregationUri(value.get('aggregation_uri'), AGGREGATION_URI, problems);
  const lst: unknown = value.get('lst');
  let listBytes: number | undefined;
  if (!(lst instanceof Uint8Array)) problems.push({ path: LST.path, message: 'lst must be a byte string' });
  else listBytes = inflateList(lst, maxListBytes, LST, problems);
  if (problems.length > before || bits === undefined || listBytes === undefined) return undefined;
  return { bits, listBytes };
}
