import { generateKeyPairSync, sign, type KeyObject } from 'node:crypto';
import { deflateSync } from 'node:zlib';
import { encode, Tag } from 'cbor2';

/**
 * Status List Tokens in CWT form built here as the draft describes them
 * (draft-ietf-oauth-status-list, Status List Token in CWT Format): a COSE_Sign1 (tag 18)
 * over the CWT claims, signed ES256 with node:crypto. Nothing shared with the decoder.
 */
export const cwtKey: KeyObject = generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey;

/** Packs statuses as the draft does (least significant bits first) and deflates them. */
export function packStatuses(bits: 1 | 2 | 4 | 8, statuses: number[], size = statuses.length): Uint8Array {
  const bytes = new Uint8Array(Math.ceil((Math.max(size, statuses.length) * bits) / 8));
  statuses.forEach((status, index) => {
    const offset = index * bits;
    bytes[Math.floor(offset / 8)]! |= status << (offset % 8);
  });
  // A plain Uint8Array: cbor2 encodes a Node Buffer as its JSON form, not as a byte string.
  return new Uint8Array(deflateSync(bytes));
}

export function signStatusListCwt(options: {
  uri: string;
  bits: 1 | 2 | 4 | 8;
  statuses: number[];
  size?: number;
  iat: number;
  exp?: number;
  ttl?: number;
  kid?: string;
}): Buffer {
  const protectedBytes = encode(
    new Map<number, unknown>([
      [1, -7],
      [16, 'application/statuslist+cwt'],
    ]),
  );
  const unprotected = new Map<number, unknown>(options.kid ? [[4, new TextEncoder().encode(options.kid)]] : []);
  const claims = new Map<number, unknown>([
    [2, options.uri],
    [6, options.iat],
    [
      65533,
      new Map<string, unknown>([
        ['bits', options.bits],
        ['lst', packStatuses(options.bits, options.statuses, options.size)],
      ]),
    ],
  ]);
  if (options.exp !== undefined) claims.set(4, options.exp);
  if (options.ttl !== undefined) claims.set(65534, options.ttl);
  const payload = encode(claims);
  const toBeSigned = encode(['Signature1', protectedBytes, new Uint8Array(0), payload]);
  const signature = new Uint8Array(sign('sha256', toBeSigned, { key: cwtKey, dsaEncoding: 'ieee-p1363' }));
  return Buffer.from(encode(new Tag(18, [protectedBytes, unprotected, payload, signature])));
}
