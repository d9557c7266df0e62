// Status List Tokens in CWT form (draft-ietf-oauth-status-list, Status List Token in
// CWT Format) as an mdoc issuer writes them: a COSE_Sign1 made with @owf/mdoc (its own
// Sig_structure, CBOR by cbor-x) and signed with node:crypto through the test
// MdocContext. Shares nothing with the verifier's reader (cbor2, its own Sig_structure).
import type { webcrypto } from 'node:crypto';
import { deflateSync } from 'node:zlib';
import { cborEncode, CoseKey, Sign1, SignatureAlgorithm } from '@owf/mdoc';
import { exportJWK } from 'jose';
import { mdocContext } from './mdoc.js';
import { packStatuses } from './status-list-server.js';

export const STATUS_LIST_CWT_TYP = 'application/statuslist+cwt';

/** COSE header labels and CWT claim keys these tests write (RFC 9052, RFC 9360, RFC 8392, the draft). */
export const Label = { ALG: 1, KID: 4, TYP: 16, X5CHAIN: 33 } as const;
export const Claim = { ISS: 1, SUB: 2, EXP: 4, IAT: 6, STATUS_LIST: 65533, TTL: 65534 } as const;

export interface CreateStatusListCwtOptions {
  /** The issuer's private key (ES256). */
  signingKey: webcrypto.CryptoKey;
  /** DER certificates, leaf first, for the `x5chain` header (33). */
  x5chain?: Uint8Array[];
  /** Which header bucket carries `x5chain`: mdoc issuers use the unprotected one (the default). */
  x5chainIn?: 'protected' | 'unprotected' | 'both';
  /** `kid` (4), written as the UTF-8 bytes of the string (a DID URL for DID issuers). */
  kid?: string;
  sub: string;
  statuses: number[];
  bits?: number;
  /** Omitted when null. */
  iat: number | null;
  exp?: number;
  ttl?: number;
  /** `typ` (16) in the protected header; null leaves it out; `unprotected` moves it there. */
  typ?: string | null;
  typIn?: 'protected' | 'unprotected';
  /** Replaces the compressed list (`lst`); a string puts text where bytes belong. */
  lst?: Uint8Array | string;
  /** Claims written over the built ones (`undefined` removes one). */
  claims?: Map<number, unknown>;
  /** The payload bytes themselves, instead of the encoded claims (malformed CBOR, say). */
  payload?: Uint8Array;
  /** Entries over the protected header (`undefined` removes one), e.g. another algorithm or `alg` moved out. */
  protectedHeader?: Map<number, unknown>;
  unprotectedHeader?: Map<number, unknown>;
  /** The CBOR tag written before the COSE_Sign1 (18 unless given; null for none). */
  tag?: number | null;
}

/** The CWT claims of a status list token, as a map with integer keys. */
export function statusListCwtClaims(options: CreateStatusListCwtOptions): Map<number, unknown> {
  const bits = options.bits ?? 2;
  const statusList = new Map<string, unknown>([
    ['bits', bits],
    ['lst', options.lst ?? new Uint8Array(deflateSync(packStatuses(options.statuses, bits)))],
  ]);
  const claims = new Map<number, unknown>([[Claim.SUB, options.sub]]);
  if (options.iat !== null) claims.set(Claim.IAT, options.iat);
  if (options.exp !== undefined) claims.set(Claim.EXP, options.exp);
  if (options.ttl !== undefined) claims.set(Claim.TTL, options.ttl);
  claims.set(Claim.STATUS_LIST, statusList);
  return over(claims, options.claims);
}

/** A signed Status List Token in CWT form: the bytes a status list server serves. */
export async function createStatusListCwt(options: CreateStatusListCwtOptions): Promise<Buffer> {
  const protectedHeader = new Map<number, unknown>([[Label.ALG, SignatureAlgorithm.ES256]]);
  const unprotectedHeader = new Map<number, unknown>();
  const typ = options.typ === undefined ? STATUS_LIST_CWT_TYP : options.typ;
  if (typ !== null) (options.typIn === 'unprotected' ? unprotectedHeader : protectedHeader).set(Label.TYP, typ);
  if (options.x5chain) {
    // RFC 9360: one certificate as a byte string, several as an array.
    const value = options.x5chain.length === 1 ? options.x5chain[0] : options.x5chain;
    const where = options.x5chainIn ?? 'unprotected';
    if (where !== 'unprotected') protectedHeader.set(Label.X5CHAIN, value);
    if (where !== 'protected') unprotectedHeader.set(Label.X5CHAIN, value);
  }
  if (options.kid) unprotectedHeader.set(Label.KID, new TextEncoder().encode(options.kid));
  const payload = options.payload ?? cborEncode(statusListCwtClaims(options));
  const signingJwk = await exportJWK(options.signingKey);
  const sign1 = await Sign1.create(
    {
      protectedHeaders: over(protectedHeader, options.protectedHeader),
      unprotectedHeaders: over(unprotectedHeader, options.unprotectedHeader),
      payload,
      signingKey: CoseKey.fromJwk(signingJwk as Record<string, unknown>),
      algorithm: SignatureAlgorithm.ES256,
    },
    mdocContext,
  );
  // `encode` writes the untagged array; COSE_Sign1_Tagged is tag 18, one byte (0xd2) before it.
  const untagged = Buffer.from(sign1.encode());
  const tag = options.tag === undefined ? 18 : options.tag;
  return tag === null ? untagged : Buffer.concat([tagHead(tag), untagged]);
}

/** The head of a CBOR tag (major type 6, RFC 8949 §3.4), written before the item it tags. */
function tagHead(tag: number): Buffer {
  if (tag < 24) return Buffer.from([0xc0 | tag]);
  if (tag < 256) return Buffer.from([0xd8, tag]);
  return Buffer.from([0xd9, tag >> 8, tag & 0xff]);
}

function over<K, V>(base: Map<K, V>, changes: Map<K, V> | undefined): Map<K, V> {
  const result = new Map(base);
  for (const [key, value] of changes ?? []) {
    if (value === undefined) result.delete(key);
    else result.set(key, value);
  }
  return result;
}
