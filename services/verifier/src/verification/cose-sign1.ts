import { constants, verify, type KeyObject } from 'node:crypto';
import { decode, Tag, type DecodeOptions } from 'cbor2';
import { LRUCache } from 'lru-cache';
import { cborArray, cborByteString, cborTextString } from './cbor-heads.js';

// COSE_Sign1 (RFC 9052 §4.2, §4.4) as a verifier reads one from anyone on the
// network: decoded strictly with cbor2, its signature checked with node:crypto
// over the Sig_structure. Whose key it is, is the caller's question.

/**
 * Strict CBOR: a map that repeats a label is refused (RFC 9052 §3: two readers could
 * take different values), so are bytes after the item; maps stay Maps whatever their
 * keys; nesting is bounded. The same settings the status list service validates with.
 */
const STRICT: DecodeOptions = { rejectDuplicateKeys: true, preferMap: true, maxDepth: 32 };

const COSE_SIGN1_TAG = 18;
const SIGNATURE1 = cborTextString('Signature1');
const HEADER_ALG = 1;

/** A decoded COSE_Sign1: the protected header as its exact bytes (what is signed) and as a map. */
export interface CoseSign1 {
  protectedBytes: Uint8Array;
  protectedHeader: Map<unknown, unknown>;
  unprotectedHeader: Map<unknown, unknown>;
  payload: Uint8Array;
  signature: Uint8Array;
}

/** One CBOR item, decoded strictly; throws with a sentence. */
export function decodeCbor(bytes: Uint8Array, what: string): unknown {
  if (bytes.length === 0) throw new Error(`the ${what} is empty`);
  try {
    return decode(plainBytes(bytes), STRICT);
  } catch (error) {
    const reason = error instanceof Error ? error.message.slice(0, 200) : 'undecodable';
    throw new Error(`the ${what} is not one well-formed CBOR item (${reason})`, { cause: error });
  }
}

/** A byte string holding one CBOR map (a header, a CWT's claims). */
export function decodeCborMap(bytes: Uint8Array, what: string): Map<unknown, unknown> {
  const value = decodeCbor(bytes, what);
  if (!(value instanceof Map)) throw new Error(`the ${what} is not a CBOR map`);
  return value;
}

/**
 * A COSE_Sign1_Tagged (CBOR tag 18): four members, the protected header a byte string
 * holding a map (or empty), the unprotected header a map, an attached payload and the
 * signature. No label may sit in both header buckets (RFC 9052 §3). Throws with a sentence.
 */
export function decodeCoseSign1(bytes: Uint8Array): CoseSign1 {
  const item = decodeCbor(bytes, 'token');
  if (!(item instanceof Tag) || item.tag !== COSE_SIGN1_TAG) {
    const what = item instanceof Tag ? `tagged ${String(item.tag)}` : 'untagged';
    throw new Error(`the token is ${what}, not a COSE_Sign1_Tagged (CBOR tag 18)`);
  }
  const members: unknown = item.contents;
  if (!Array.isArray(members) || members.length !== 4)
    throw new Error('the COSE_Sign1 is not an array of four members');
  const [protectedBytes, unprotectedHeader, payload, signature] = members as unknown[];
  if (!(protectedBytes instanceof Uint8Array)) throw new Error('the protected header is not a byte string');
  if (!(unprotectedHeader instanceof Map)) throw new Error('the unprotected header is not a map');
  if (!(payload instanceof Uint8Array)) throw new Error('the payload is not an attached byte string');
  if (!(signature instanceof Uint8Array) || signature.length === 0) throw new Error('the token is not signed');
  return coseSign1Of({ protectedBytes, unprotectedHeader, payload, signature });
}

/** A header parameter from whichever bucket holds it (decodeCoseSign1 has refused one in both). */
export function coseHeaderParameter(sign1: CoseSign1, label: number): unknown {
  return sign1.protectedHeader.get(label) ?? sign1.unprotectedHeader.get(label);
}

interface CoseAlgorithm {
  name: string;
  /** node:crypto digest; null for EdDSA, which hashes itself. */
  hash: 'sha256' | 'sha384' | 'sha512' | null;
  /** `KeyObject.asymmetricKeyType` values the algorithm takes. */
  keyTypes: string[];
  /** The curve an ECDSA key must be on. */
  curve?: string;
  /** RSASSA-PSS: salt as long as the digest (RFC 8230). */
  pss?: true;
}

/**
 * The signature algorithms accepted (the COSE counterparts of the JWS algorithms
 * issuer JWTs are accepted with, `JWS_ALGORITHMS`): ECDSA (-7/-35/-36 and the fully
 * specified -9/-51/-52 of RFC 9864), EdDSA (-8, and Ed25519 -19), RSASSA-PSS (-37/-38/-39).
 */
const COSE_ALGORITHMS = new Map<number, CoseAlgorithm>([
  [-7, { name: 'ES256', hash: 'sha256', keyTypes: ['ec'], curve: 'prime256v1' }],
  [-9, { name: 'ESP256', hash: 'sha256', keyTypes: ['ec'], curve: 'prime256v1' }],
  [-35, { name: 'ES384', hash: 'sha384', keyTypes: ['ec'], curve: 'secp384r1' }],
  [-51, { name: 'ESP384', hash: 'sha384', keyTypes: ['ec'], curve: 'secp384r1' }],
  [-36, { name: 'ES512', hash: 'sha512', keyTypes: ['ec'], curve: 'secp521r1' }],
  [-52, { name: 'ESP512', hash: 'sha512', keyTypes: ['ec'], curve: 'secp521r1' }],
  [-8, { name: 'EdDSA', hash: null, keyTypes: ['ed25519', 'ed448'] }],
  [-19, { name: 'Ed25519', hash: null, keyTypes: ['ed25519'] }],
  [-37, { name: 'PS256', hash: 'sha256', keyTypes: ['rsa', 'rsa-pss'], pss: true }],
  [-38, { name: 'PS384', hash: 'sha384', keyTypes: ['rsa', 'rsa-pss'], pss: true }],
  [-39, { name: 'PS512', hash: 'sha512', keyTypes: ['rsa', 'rsa-pss'], pss: true }],
]);

const DIGEST_BYTES = { sha256: 32, sha384: 48, sha512: 64 } as const;

/**
 * A COSE_Sign1 from its four members as another decoder handed them over (an mdoc's
 * issuerAuth and deviceSignature, read by @auth0/mdl): the protected header's exact bytes
 * decoded strictly here, the same rules as `decodeCoseSign1`. A detached payload (nil, as in
 * a DeviceSignature) is given by the caller as `payload`. Throws with a sentence.
 */
export function coseSign1Of(members: {
  protectedBytes: Uint8Array;
  unprotectedHeader: Map<unknown, unknown> | Record<string, unknown> | undefined;
  payload: Uint8Array;
  signature: Uint8Array;
}): CoseSign1 {
  const { protectedBytes, payload, signature } = members;
  if (!(protectedBytes instanceof Uint8Array)) throw new Error('the protected header is not a byte string');
  if (!(signature instanceof Uint8Array) || signature.length === 0) throw new Error('the COSE_Sign1 is not signed');
  const unprotectedHeader =
    members.unprotectedHeader instanceof Map
      ? members.unprotectedHeader
      : new Map<unknown, unknown>(Object.entries(members.unprotectedHeader ?? {}));
  const protectedHeader =
    protectedBytes.length === 0 ? new Map<unknown, unknown>() : decodeProtectedHeader(protectedBytes);
  for (const label of protectedHeader.keys()) {
    if (unprotectedHeader.has(label))
      throw new Error(`header parameter ${String(label)} is in both the protected and the unprotected header`);
  }
  return { protectedBytes, protectedHeader, unprotectedHeader, payload, signature };
}

/**
 * Protected headers seen before, decoded: an issuer's and a wallet's are the same few bytes on
 * every presentation (`A1 01 26`, {1: -7}), and cbor2's strict decode costs more than the rest
 * of reading them. Only short headers whose values are all scalars are kept (a copy of the map
 * is handed out), and only after they decoded strictly; bytes that fail are decoded, and refused,
 * every time.
 */
const MAX_CACHED_HEADER_BYTES = 64;
const decodedHeaders = new LRUCache<string, Map<unknown, unknown>>({ max: 256 });

function decodeProtectedHeader(bytes: Uint8Array): Map<unknown, unknown> {
  if (bytes.length > MAX_CACHED_HEADER_BYTES) return decodeCborMap(bytes, 'protected header');
  const key = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('base64');
  const cached = decodedHeaders.get(key);
  if (cached) return new Map(cached);
  const decoded = decodeCborMap(bytes, 'protected header');
  if ([...decoded.entries()].every(([label, value]) => isScalar(label) && isScalar(value)))
    decodedHeaders.set(key, new Map(decoded));
  return decoded;
}

function isScalar(value: unknown): boolean {
  return ['number', 'string', 'bigint', 'boolean'].includes(typeof value);
}

/** What node:crypto's verify takes for `sign1` under `key`; throws when the algorithm is missing or does not fit. */
function signatureCheckOf(sign1: CoseSign1, key: KeyObject) {
  const label = sign1.protectedHeader.get(HEADER_ALG);
  if (label === undefined) {
    throw new Error(
      sign1.unprotectedHeader.has(HEADER_ALG)
        ? 'the algorithm (1) is in the unprotected header: it must be protected'
        : 'the protected header names no algorithm (1)',
    );
  }
  const algorithm = typeof label === 'number' ? COSE_ALGORITHMS.get(label) : undefined;
  if (!algorithm) throw new Error(`the signature algorithm ${JSON.stringify(label)} is not accepted`);
  const keyType = key.asymmetricKeyType ?? '';
  const curve = key.asymmetricKeyDetails?.namedCurve;
  if (!algorithm.keyTypes.includes(keyType) || (algorithm.curve !== undefined && curve !== algorithm.curve)) {
    throw new Error(`the signing key (${keyType}${curve ? ` ${curve}` : ''}) does not fit algorithm ${algorithm.name}`);
  }
  // Sig_structure = ["Signature1", protected header bytes, external_aad (empty), payload].
  const toBeSigned = cborArray([
    SIGNATURE1,
    cborByteString(sign1.protectedBytes),
    cborByteString(new Uint8Array(0)),
    cborByteString(sign1.payload),
  ]);
  const keyInput =
    algorithm.hash === null
      ? key
      : algorithm.pss
        ? { key, padding: constants.RSA_PKCS1_PSS_PADDING, saltLength: DIGEST_BYTES[algorithm.hash] }
        : { key, dsaEncoding: 'ieee-p1363' as const };
  return { algorithm, hash: algorithm.hash, toBeSigned, keyInput };
}

/**
 * Checks the signature of `sign1` with `key` (RFC 9052 §4.4): over the Sig_structure
 * ["Signature1", protected header bytes, empty external AAD, payload], with the
 * algorithm of the protected header, which must fit the key. Throws with a sentence.
 */
export function verifyCoseSign1Signature(sign1: CoseSign1, key: KeyObject): void {
  const check = signatureCheckOf(sign1, key);
  let valid: boolean;
  try {
    valid = verify(check.hash, check.toBeSigned, check.keyInput, sign1.signature);
  } catch {
    valid = false;
  }
  if (!valid) throw new Error(`the token's signature is invalid (${check.algorithm.name})`);
}

/**
 * The same check on libuv's thread pool (node:crypto's callback form), so the event loop
 * is free while the signature is verified, as WebCrypto's verify leaves it. Rejects with a
 * sentence naming `what` was signed.
 */
export async function verifyCoseSign1SignatureInPool(sign1: CoseSign1, key: KeyObject, what: string): Promise<void> {
  const check = signatureCheckOf(sign1, key);
  const valid = await new Promise<boolean>((resolve) => {
    try {
      verify(check.hash, check.toBeSigned, check.keyInput, sign1.signature, (error, result) =>
        resolve(!error && result),
      );
    } catch {
      resolve(false);
    }
  });
  if (!valid) throw new Error(`the ${what} signature is invalid (${check.algorithm.name})`);
}

/**
 * The same bytes as a plain Uint8Array. cbor2 writes a Node Buffer as the object its
 * `toJSON` gives, not as a byte string, and hands back views of its input: a Buffer in,
 * Buffers out. Decoding and the Sig_structure therefore work on plain views.
 */
function plainBytes(bytes: Uint8Array): Uint8Array {
  return Object.getPrototypeOf(bytes) === Uint8Array.prototype
    ? bytes
    : new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}
