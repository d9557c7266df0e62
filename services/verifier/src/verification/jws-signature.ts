import { constants, verify, type KeyObject } from 'node:crypto';
import { JWS_ALGORITHMS } from './issuer-key.js';

// A compact JWS's signature checked with node:crypto and a KeyObject the caller imported once:
// the SD-JWT's issuer signature by the key the chain/trust cache holds (issuer-key.ts), the KB-JWT
// by the holder's `cnf` key. (jose, given a KeyObject on Node 20, exports it to a JWK and imports
// it again into WebCrypto for every verification: a second import of the same key.) The token is
// split and its parts parsed once (`decodeJws`); callers read the header and payload from there.

interface JwsAlgorithm {
  hash: 'sha256' | 'sha384' | 'sha512' | null;
  keyTypes: string[];
  curve?: string;
  pss?: true;
}

const ALGORITHMS: Record<string, JwsAlgorithm> = {
  ES256: { hash: 'sha256', keyTypes: ['ec'], curve: 'prime256v1' },
  ES384: { hash: 'sha384', keyTypes: ['ec'], curve: 'secp384r1' },
  ES512: { hash: 'sha512', keyTypes: ['ec'], curve: 'secp521r1' },
  EdDSA: { hash: null, keyTypes: ['ed25519', 'ed448'] },
  Ed25519: { hash: null, keyTypes: ['ed25519'] },
  PS256: { hash: 'sha256', keyTypes: ['rsa', 'rsa-pss'], pss: true },
  PS384: { hash: 'sha384', keyTypes: ['rsa', 'rsa-pss'], pss: true },
  PS512: { hash: 'sha512', keyTypes: ['rsa', 'rsa-pss'], pss: true },
};
const SALT_BYTES = { sha256: 32, sha384: 48, sha512: 64 } as const;
/** RSA keys below this are refused, as jose (and the certificate profile) do. */
const MIN_RSA_BITS = 2048;
const BASE64URL = /^[A-Za-z0-9_-]*$/;

/** A compact JWS split once: its protected header and payload parsed as JSON objects, the parts kept as presented. */
export interface DecodedJws {
  header: Record<string, unknown>;
  payload: Record<string, unknown>;
  /** `<header>.<payload>` as presented: what the signature covers. */
  signingInput: string;
  signature: string;
}

/** Splits and parses compact JWS `jws` (a JWT: its payload must be a JSON object). Throws a sentence. */
export function decodeJws(jws: string): DecodedJws {
  const parts = jws.split('.');
  if (parts.length !== 3 || parts.some((part) => !BASE64URL.test(part)))
    throw new Error('the JWS is not three base64url parts');
  const [encodedHeader, encodedPayload, signature] = parts as [string, string, string];
  return {
    header: parseJsonObject(encodedHeader, 'protected header'),
    payload: parseJsonObject(encodedPayload, 'payload'),
    signingInput: `${encodedHeader}.${encodedPayload}`,
    signature,
  };
}

/**
 * Verifies the signature of compact JWS `jws` with `key` (see {@link verifyDecodedJwsSignature}).
 * Rejects with a sentence.
 */
export async function verifyJwsSignature(jws: string, key: KeyObject): Promise<void> {
  await verifyDecodedJwsSignature(decodeJws(jws), key);
}

/**
 * Verifies the signature of a decoded JWS with `key` on libuv's thread pool (node:crypto's
 * callback form, as WebCrypto leaves the event loop free): the protected header's `alg` one of
 * `JWS_ALGORITHMS` and fitting the key (type, curve, RSA at least 2048 bits), no `crit`.
 * Rejects with a sentence.
 */
export async function verifyDecodedJwsSignature(jws: DecodedJws, key: KeyObject): Promise<void> {
  const { alg, crit } = jws.header;
  if (crit !== undefined) throw new Error('the JWS names critical header parameters (crit), none is understood');
  if (typeof alg !== 'string' || !JWS_ALGORITHMS.includes(alg) || !ALGORITHMS[alg])
    throw new Error(`the JWS algorithm ${JSON.stringify(alg ?? null)} is not accepted`);
  const algorithm = ALGORITHMS[alg];
  const keyType = key.type === 'public' ? (key.asymmetricKeyType ?? '') : '';
  const details = key.asymmetricKeyDetails;
  const curve = details?.namedCurve;
  if (!algorithm.keyTypes.includes(keyType) || (algorithm.curve !== undefined && curve !== algorithm.curve))
    throw new Error(`the key (${keyType || key.type}${curve ? ` ${curve}` : ''}) does not fit algorithm ${alg}`);
  if (algorithm.pss && (details?.modulusLength ?? 0) < MIN_RSA_BITS)
    throw new Error(`the RSA key has fewer than ${MIN_RSA_BITS} bits`);
  const signingInput = Buffer.from(jws.signingInput, 'ascii');
  const signature = Buffer.from(jws.signature, 'base64url');
  const keyInput =
    algorithm.hash === null
      ? key
      : algorithm.pss
        ? { key, padding: constants.RSA_PKCS1_PSS_PADDING, saltLength: SALT_BYTES[algorithm.hash] }
        : { key, dsaEncoding: 'ieee-p1363' as const };
  const valid = await new Promise<boolean>((resolve) => {
    try {
      verify(algorithm.hash, signingInput, keyInput, signature, (error, result) => resolve(!error && result));
    } catch {
      resolve(false);
    }
  });
  if (!valid) throw new Error(`the signature is invalid (${alg})`);
}

function parseJsonObject(encoded: string, name: string): Record<string, unknown> {
  let value: unknown;
  try {
    value = JSON.parse(Buffer.from(encoded, 'base64url').toString('utf8'));
  } catch {
    throw new Error(`the JWS ${name} is not JSON`);
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    throw new Error(`the JWS ${name} is not a JSON object`);
  return value as Record<string, unknown>;
}
