import { generateKeyPairSync, sign, type KeyObject } from 'node:crypto';
import { Encoder, Tag } from 'cbor-x';
import { encodeLst, packStatuses } from './status-list-token.js';

// Status List Tokens in CWT form, built the way an issuer would with a CBOR library the
// service does not use (cbor-x; the service decodes with cbor2) and signed with
// node:crypto over the COSE Sig_structure (RFC 9052 §4.4). Tests cross-check what this
// builds with cose-kit, an independent COSE implementation, so a bug here shows.

/** CBOR as an issuer writes it: Maps stay maps (integer labels), byte strings untagged, no record extensions. */
export const cbor = new Encoder({
  useRecords: false,
  mapsAsObjects: false,
  tagUint8Array: false,
  variableMapSize: true,
});

/** The issuer's key of these tests (ES256). */
export const cwtIssuerKey: { privateKey: KeyObject; publicKey: KeyObject } = generateKeyPairSync('ec', {
  namedCurve: 'P-256',
});

export interface CwtOptions {
  sub: string;
  iat?: number;
  /** `null` leaves exp out. */
  exp?: number | null;
  ttl?: number;
  bits?: 1 | 2 | 4 | 8;
  statuses?: number[];
  /** The compressed list itself (bytes); built from `statuses` unless given. */
  lst?: Uint8Array;
  aggregationUri?: string;
  /** Protected header entries over the default `{1: -7, 16: 'application/statuslist+cwt'}` (`undefined` drops one). */
  protectedHeader?: Map<number, unknown>;
  unprotectedHeader?: Map<number, unknown>;
  /** Claims over the built ones (`undefined` drops one). */
  claims?: Map<unknown, unknown>;
  /** Replaces the status list claim (65533) entirely. */
  statusList?: unknown;
  /** The CBOR tag around the COSE_Sign1 (18 unless given; `null` for none). */
  tag?: number | null;
  /** Replaces the signature (an empty one, say). */
  signature?: Uint8Array;
}

const ES256 = -7;

function merged<K, V>(base: Map<K, V>, over: Map<K, V> | undefined): Map<K, V> {
  const result = new Map(base);
  for (const [key, value] of over ?? []) {
    if (value === undefined) result.delete(key);
    else result.set(key, value);
  }
  return result;
}

/** The CWT claims of a status list token (draft-ietf-oauth-status-list, Status List Token in CWT Format). */
export function statusListClaims(options: CwtOptions): Map<unknown, unknown> {
  const bits = options.bits ?? 1;
  const lst =
    options.lst ?? Buffer.from(encodeLst(packStatuses(options.statuses ?? [0, 1, 0, 0, 1], bits)), 'base64url');
  const statusList = new Map<string, unknown>([
    ['bits', bits],
    ['lst', Buffer.from(lst)],
  ]);
  if (options.aggregationUri !== undefined) statusList.set('aggregation_uri', options.aggregationUri);
  const claims = new Map<unknown, unknown>([
    [2, options.sub],
    [6, options.iat ?? 1_700_000_000],
  ]);
  if (options.exp !== null) claims.set(4, options.exp ?? 4_000_000_000);
  if (options.ttl !== undefined) claims.set(65534, options.ttl);
  claims.set(65533, options.statusList ?? statusList);
  return merged(claims, options.claims);
}

/** A COSE_Sign1 over `payload`, signed ES256 with `key` (RFC 9052 §4.4). */
export function signCoseSign1(
  protectedHeader: Map<number, unknown>,
  unprotectedHeader: Map<number, unknown>,
  payload: Uint8Array,
  key: KeyObject = cwtIssuerKey.privateKey,
): { protectedBytes: Buffer; signature: Buffer } {
  const protectedBytes = protectedHeader.size === 0 ? Buffer.alloc(0) : cbor.encode(protectedHeader);
  const toBeSigned = cbor.encode(['Signature1', protectedBytes, Buffer.alloc(0), Buffer.from(payload)]);
  return { protectedBytes, signature: sign('sha256', toBeSigned, { key, dsaEncoding: 'ieee-p1363' }) };
}

/** A real issuer-signed Status List Token in CWT form: its bytes, and their base64url as a write sends them. */
export function signStatusListCwt(options: CwtOptions): { bytes: Buffer; base64url: string } {
  const protectedHeader = merged(
    new Map<number, unknown>([
      [1, ES256],
      [16, 'application/statuslist+cwt'],
    ]),
    options.protectedHeader,
  );
  const unprotectedHeader = options.unprotectedHeader ?? new Map<number, unknown>([[4, Buffer.from('issuer-1')]]);
  const payload = cbor.encode(statusListClaims(options));
  const { protectedBytes, signature } = signCoseSign1(protectedHeader, unprotectedHeader, payload);
  const sign1 = [
    protectedBytes,
    unprotectedHeader,
    payload,
    options.signature ? Buffer.from(options.signature) : signature,
  ];
  const tag = options.tag === undefined ? 18 : options.tag;
  const bytes = cbor.encode(tag === null ? sign1 : new Tag(sign1, tag));
  return { bytes, base64url: bytes.toString('base64url') };
}

/** The draft's non-normative Status List Token in CWT form (draft-ietf-oauth-status-list, examples/status_list_cwt.md). */
export const DRAFT_CWT_EXAMPLE_HEX =
  'd2845820a2012610781a6170706c69636174696f6e2f7374617475736c6973742b63' +
  '7774a1044231325850a502782168747470733a2f2f6578616d706c652e636f6d2f73' +
  '74617475736c697374732f31061a648c5bea041a8898dfea19fffe19a8c019fffda2' +
  '646269747301636c73744a78dadbb918000217015d584093fa4d01032b18c35e2fe1' +
  '101b77fd6cc9440022caa4694450c4e4e9feab4e99d1fa6d9772ce2bf3a12e0323de' +
  'd7c982c5e101a5e67f0cbc1e2b6f57ce99c279';
