import { constants, verify, type KeyObject } from 'node:crypto';
import { JWS_ALGORITHMS } from './issuer-key.js';

// A compact JWS's signature checked with node:crypto and a KeyObject the caller imported once:
// the KB-JWT by the holder's `cnf` key. (jose, given a KeyObject on Node 20, exports it to a JWK
// and imports it again into WebCrypto for every verification: a second import of the same key.)

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

/**
 * Verifies the signature of compact JWS `jws` with `key` on libuv's thread pool (node:crypto's
 * callback form, as WebCrypto leaves the event loop free): the protected header's `alg` one of
 * `JWS_ALGORITHMS` and fitting the key, no `crit`. Rejects with a sentence.
 */
export async function verifyJwsSignature(jws: string, key: KeyObject): Promise<void> {
  const parts = jws.split('.');
  if (parts.length !== 3 || parts.some((part) => !/^[A-Za-z0-9_-]*$/.test(part)))
    throw new Error('the JWS is not three base64url parts');
  const [encodedHeader, encodedPayload, encodedSignature] = parts as [string, string, string];
  let header: unknown;
  try {
    header = JSON.parse(Buffer.from(encodedHeader, 'base64url').toString('utf8'));
  } catch {
    throw new Error('the JWS protected header is not JSON');
  }
  if (typeof header !== 'object' || header === null || Array.isArray(header))
    throw new Error('the JWS protected header is not a JSON object');
  const { alg, crit } = header as { alg?: unknown; crit?: unknown };
  if (crit !== undefined) throw new Error('the JWS names critical header parameters (crit), none is understood');
  if (typeof alg !== 'string' || !JWS_ALGORITHMS.includes(alg) || !ALGORITHMS[alg])
    throw new Error(`the JWS algorithm ${JSON.stringify(alg ?? null)} is not accepted`);
  const algorithm = ALGORITHMS[alg];
  const keyType = key.asymmetricKeyType ?? '';
  const curve = key.asymmetricKeyDetails?.namedCurve;
  if (!algorithm.keyTypes.includes(keyType) || (algorithm.curve !== undefined && curve !== algorithm.curve))
    throw new Error(`the key (${keyType}${curve ? ` ${curve}` : ''}) does not fit algorithm ${alg}`);
  const signingInput = Buffer.from(`${encodedHeader}.${encodedPayload}`, 'ascii');
  const signature = Buffer.from(encodedSignature, 'base64url');
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
