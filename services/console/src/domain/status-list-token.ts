import { inflateSync } from 'node:zlib';
import { decode, Tag } from 'cbor2';
import { decodeJwt, decodeProtectedHeader } from 'jose';
import { STATUS_LIST_CWT_MEDIA_TYPE, STATUS_LIST_MEDIA_TYPE, StatusListCwt } from '@tessera/contracts';

/** Largest list decoded (the status list service's own default cap on an inflated list). */
export const MAX_LIST_BYTES = 16 * 1024 * 1024;

/** A status list as read from its token (draft-ietf-oauth-status-list): the claims and the bits. */
export interface DecodedStatusList {
  format: 'jwt' | 'cwt';
  subject: string;
  issuedAt?: number;
  expiresAt?: number;
  ttl?: number;
  aggregationUri?: string;
  bits: 1 | 2 | 4 | 8;
  /** The inflated list: entry i holds `bits` bits, the first entry in the least significant bits of byte 0. */
  bytes: Uint8Array;
  /** The entries the list holds (bytes × 8 ÷ bits). */
  size: number;
  /** The header's algorithm and `kid`/`x5c` presence, for the signer line (the console shows, it does not verify). */
  signedWith: string;
}

export type DecodeResult = { ok: true; list: DecodedStatusList } | { ok: false; problem: string };

/**
 * Decodes a status list token as the status list service served it: a compact JWS
 * (`application/statuslist+jwt`) or a tagged COSE_Sign1 (`application/statuslist+cwt`).
 * Display only: the signature is checked by the verifiers that rely on the list.
 */
export function decodeStatusListToken(token: { mediaType: string; body: Uint8Array }): DecodeResult {
  if (token.mediaType === STATUS_LIST_CWT_MEDIA_TYPE) return decodeStatusListCwt(token.body);
  if (token.mediaType === STATUS_LIST_MEDIA_TYPE) return decodeStatusListJwt(new TextDecoder().decode(token.body));
  return {
    ok: false,
    problem: `The service answered ${token.mediaType || 'no media type'}, neither ${STATUS_LIST_MEDIA_TYPE} nor ${STATUS_LIST_CWT_MEDIA_TYPE}.`,
  };
}

/** The JWT form: claims by name, `lst` base64url in the `status_list` claim. */
export function decodeStatusListJwt(token: string): DecodeResult {
  let payload: Record<string, unknown>;
  let header: Record<string, unknown>;
  try {
    payload = decodeJwt(token.trim()) as Record<string, unknown>;
    header = decodeProtectedHeader(token.trim()) as Record<string, unknown>;
  } catch {
    return { ok: false, problem: 'The token is not a JWT.' };
  }
  const statusList = payload.status_list as { bits?: unknown; lst?: unknown; aggregation_uri?: unknown } | undefined;
  if (typeof statusList?.lst !== 'string') return { ok: false, problem: 'status_list.lst is missing.' };
  return readList({
    format: 'jwt',
    sub: payload.sub,
    iat: payload.iat,
    exp: payload.exp,
    ttl: payload.ttl,
    bits: statusList.bits,
    lst: Buffer.from(statusList.lst, 'base64url'),
    aggregationUri: statusList.aggregation_uri,
    signedWith: `${String(header.alg)}${Array.isArray(header.x5c) ? ', x5c certificate chain' : ''}${typeof header.kid === 'string' ? `, kid ${header.kid}` : ''}`,
  });
}

const { COSE_SIGN1_TAG, header: HEADER, claim: CLAIM } = StatusListCwt;

/** COSE algorithm numbers a status list is likely signed with (IANA COSE Algorithms). */
const COSE_ALGORITHMS: Record<number, string> = {
  [-7]: 'ES256',
  [-35]: 'ES384',
  [-36]: 'ES512',
  [-8]: 'EdDSA',
  [-19]: 'Ed25519',
  [-9]: 'ESP256',
  [-51]: 'ESP384',
  [-37]: 'PS256',
  [-38]: 'PS384',
  [-39]: 'PS512',
  [-257]: 'RS256',
};

/**
 * The CWT form: a COSE_Sign1 (tag 18) whose protected header names the algorithm and
 * whose payload is the CWT claims map, claims by number, `lst` as bytes.
 */
export function decodeStatusListCwt(bytes: Uint8Array): DecodeResult {
  const item = decodeCbor(bytes);
  if (
    !(item instanceof Tag) ||
    item.tag !== COSE_SIGN1_TAG ||
    !Array.isArray(item.contents) ||
    item.contents.length !== 4
  )
    return { ok: false, problem: 'The token is not a COSE_Sign1 (a CBOR array of four members under tag 18).' };
  const [protectedBytes, unprotected, payloadBytes] = item.contents as unknown[];
  const header =
    protectedBytes instanceof Uint8Array && protectedBytes.length > 0 ? decodeCbor(protectedBytes) : new Map();
  const payload = payloadBytes instanceof Uint8Array ? decodeCbor(payloadBytes) : undefined;
  if (!(header instanceof Map)) return { ok: false, problem: 'The protected header is not a CBOR map.' };
  if (!(payload instanceof Map)) return { ok: false, problem: 'The payload is not a CBOR map of CWT claims.' };
  const statusList = payload.get(CLAIM.STATUS_LIST) as unknown;
  if (!(statusList instanceof Map)) return { ok: false, problem: 'The status_list claim (65533) is missing.' };
  const lst = statusList.get('lst') as unknown;
  if (!(lst instanceof Uint8Array)) return { ok: false, problem: 'status_list.lst is missing.' };
  const alg = header.get(HEADER.ALG) as unknown;
  const kid = (header.get(HEADER.KID) ??
    (unprotected instanceof Map ? unprotected.get(HEADER.KID) : undefined)) as unknown;
  const chain = header.has(HEADER.X5CHAIN) || (unprotected instanceof Map && unprotected.has(HEADER.X5CHAIN));
  return readList({
    format: 'cwt',
    sub: payload.get(CLAIM.SUB),
    iat: payload.get(CLAIM.IAT),
    exp: payload.get(CLAIM.EXP),
    ttl: payload.get(CLAIM.TTL),
    bits: statusList.get('bits'),
    lst,
    aggregationUri: statusList.get('aggregation_uri'),
    signedWith: `${typeof alg === 'number' ? `${COSE_ALGORITHMS[alg] ?? 'algorithm'} (${alg})` : String(alg)}${chain ? ', x5chain certificate chain' : ''}${kid !== undefined ? `, kid ${describeKid(kid)}` : ''}`,
  });
}

function decodeCbor(bytes: Uint8Array): unknown {
  try {
    return decode(bytes, { preferMap: true, maxDepth: 32 });
  } catch {
    return undefined;
  }
}

/** A key id: its text when it is printable UTF-8, its hex otherwise. */
function describeKid(kid: unknown): string {
  if (typeof kid === 'string') return kid;
  if (!(kid instanceof Uint8Array)) return String(kid);
  const text = new TextDecoder('utf-8', { fatal: false }).decode(kid);
  return /^[\x20-\x7e]+$/.test(text) ? text : Buffer.from(kid).toString('hex');
}

/** What both forms share once their claims are read: the bits, the inflated list, the times. */
function readList(claims: {
  format: DecodedStatusList['format'];
  sub: unknown;
  iat: unknown;
  exp: unknown;
  ttl: unknown;
  bits: unknown;
  lst: Uint8Array;
  aggregationUri: unknown;
  signedWith: string;
}): DecodeResult {
  const { bits } = claims;
  if (bits !== 1 && bits !== 2 && bits !== 4 && bits !== 8)
    return { ok: false, problem: 'status_list.bits is not 1, 2, 4 or 8.' };
  let bytes: Buffer;
  try {
    bytes = inflateSync(claims.lst, { maxOutputLength: MAX_LIST_BYTES });
  } catch {
    return { ok: false, problem: `status_list.lst is not a zlib stream of at most ${MAX_LIST_BYTES} bytes.` };
  }
  const number = (value: unknown) => (typeof value === 'number' ? value : undefined);
  const issuedAt = number(claims.iat);
  const expiresAt = number(claims.exp);
  const ttl = number(claims.ttl);
  return {
    ok: true,
    list: {
      format: claims.format,
      subject: typeof claims.sub === 'string' ? claims.sub : '',
      ...(issuedAt !== undefined ? { issuedAt } : {}),
      ...(expiresAt !== undefined ? { expiresAt } : {}),
      ...(ttl !== undefined ? { ttl } : {}),
      ...(typeof claims.aggregationUri === 'string' ? { aggregationUri: claims.aggregationUri } : {}),
      bits,
      bytes: new Uint8Array(bytes),
      size: (bytes.length * 8) / bits,
      signedWith: claims.signedWith,
    },
  };
}

/** The status of entry `index`. */
export function statusAt(list: Pick<DecodedStatusList, 'bits' | 'bytes'>, index: number): number {
  const bitOffset = index * list.bits;
  const byte = list.bytes[Math.floor(bitOffset / 8)] ?? 0;
  return (byte >> (bitOffset % 8)) & ((1 << list.bits) - 1);
}

/** Status values of the draft; others are application-specific. */
export function statusName(value: number): string {
  switch (value) {
    case 0:
      return 'VALID';
    case 1:
      return 'INVALID (revoked)';
    case 2:
      return 'SUSPENDED';
    default:
      return `0x${value.toString(16).padStart(2, '0')} (application-specific)`;
  }
}

/** Entries matching a search: one index, or every entry with a given status, a page at a time. */
export function searchEntries(
  list: Pick<DecodedStatusList, 'bits' | 'bytes' | 'size'>,
  search: { index?: number; status?: number; page: number; pageSize: number },
): { entries: Array<{ index: number; status: number }>; total: number } {
  if (search.index !== undefined) {
    return search.index >= 0 && search.index < list.size
      ? { entries: [{ index: search.index, status: statusAt(list, search.index) }], total: 1 }
      : { entries: [], total: 0 };
  }
  const from = (search.page - 1) * search.pageSize;
  if (search.status === undefined) {
    const to = Math.min(list.size, from + search.pageSize);
    const entries = [];
    for (let index = from; index < to; index++) entries.push({ index, status: statusAt(list, index) });
    return { entries, total: list.size };
  }
  const entries: Array<{ index: number; status: number }> = [];
  let total = 0;
  for (let index = 0; index < list.size; index++) {
    if (statusAt(list, index) !== search.status) continue;
    if (total >= from && entries.length < search.pageSize) entries.push({ index, status: search.status });
    total += 1;
  }
  return { entries, total };
}

/** Counts per status value, for the list's summary. */
export function countStatuses(list: Pick<DecodedStatusList, 'bits' | 'bytes' | 'size'>): Map<number, number> {
  const counts = new Map<number, number>();
  for (let index = 0; index < list.size; index++) {
    const status = statusAt(list, index);
    counts.set(status, (counts.get(status) ?? 0) + 1);
  }
  return counts;
}

/** A list id from what a person pastes: the id, or a status list address on the platform's service. */
export function listIdOf(text: string): string | undefined {
  const trimmed = text.trim();
  const match =
    /(?:^|\/status-lists\/)([0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12})(?:[?#].*)?$/.exec(
      trimmed,
    );
  return match?.[1]?.toLowerCase();
}
