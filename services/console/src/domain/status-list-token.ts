import { inflateSync } from 'node:zlib';
import { decodeJwt, decodeProtectedHeader } from 'jose';

/** Largest list decoded (the status list service's own default cap on an inflated list). */
export const MAX_LIST_BYTES = 16 * 1024 * 1024;

/** A status list as read from its token (draft-ietf-oauth-status-list): the claims and the bits. */
export interface DecodedStatusList {
  format: 'jwt';
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
  /** The header's `kid`/`x5c` presence, for the signer line (the console shows, it does not verify). */
  signedWith: string;
}

export type DecodeResult = { ok: true; list: DecodedStatusList } | { ok: false; problem: string };

/**
 * Decodes a status list token. JWT lists only (`application/statuslist+jwt`, what the
 * status list service stores today); the CWT form (`application/statuslist+cwt`,
 * issue 26) is a second branch here when the service serves it. Display only: the
 * signature is checked by the verifiers that rely on the list.
 */
export function decodeStatusListToken(token: string): DecodeResult {
  let payload: Record<string, unknown>;
  let header: Record<string, unknown>;
  try {
    payload = decodeJwt(token.trim()) as Record<string, unknown>;
    header = decodeProtectedHeader(token.trim()) as Record<string, unknown>;
  } catch {
    return { ok: false, problem: 'The token is not a JWT.' };
  }
  const statusList = payload.status_list as { bits?: unknown; lst?: unknown; aggregation_uri?: unknown } | undefined;
  const bits = statusList?.bits;
  if (bits !== 1 && bits !== 2 && bits !== 4 && bits !== 8)
    return { ok: false, problem: 'status_list.bits is not 1, 2, 4 or 8.' };
  if (typeof statusList?.lst !== 'string') return { ok: false, problem: 'status_list.lst is missing.' };
  let bytes: Buffer;
  try {
    bytes = inflateSync(Buffer.from(statusList.lst, 'base64url'), { maxOutputLength: MAX_LIST_BYTES });
  } catch {
    return { ok: false, problem: `status_list.lst is not a zlib stream of at most ${MAX_LIST_BYTES} bytes.` };
  }
  const number = (value: unknown) => (typeof value === 'number' ? value : undefined);
  const aggregationUri = typeof statusList.aggregation_uri === 'string' ? statusList.aggregation_uri : undefined;
  return {
    ok: true,
    list: {
      format: 'jwt',
      subject: typeof payload.sub === 'string' ? payload.sub : '',
      ...(number(payload.iat) !== undefined ? { issuedAt: number(payload.iat) } : {}),
      ...(number(payload.exp) !== undefined ? { expiresAt: number(payload.exp) } : {}),
      ...(number(payload.ttl) !== undefined ? { ttl: number(payload.ttl) } : {}),
      ...(aggregationUri ? { aggregationUri } : {}),
      bits,
      bytes: new Uint8Array(bytes),
      size: (bytes.length * 8) / bits,
      signedWith: `${String(header.alg)}${Array.isArray(header.x5c) ? ', x5c certificate chain' : ''}${typeof header.kid === 'string' ? `, kid ${header.kid}` : ''}`,
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
