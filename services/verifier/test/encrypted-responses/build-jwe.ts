// A JWE written by hand with node:crypto (RFC 7516 compact serialization, RFC 7518
// §4.6 ECDH-ES direct key agreement with the Concat KDF, AES-GCM), so the tests can
// send what a library would refuse to build: a `zip` header with a deflated payload.
// Without `zip` it is an ordinary JWE, which the service must accept (the control).
import {
  createCipheriv,
  createHash,
  createPublicKey,
  diffieHellman,
  generateKeyPairSync,
  randomBytes,
} from 'node:crypto';
import { deflateRawSync } from 'node:zlib';
import type { JWK } from 'jose';

const lengthPrefixed = (data: Buffer) => Buffer.concat([uint32(data.length), data]);
function uint32(value: number): Buffer {
  const buffer = Buffer.alloc(4);
  buffer.writeUInt32BE(value);
  return buffer;
}

/** Concat KDF (NIST SP 800-56A, one SHA-256 round is enough for ≤ 256 bits) as RFC 7518 §4.6.2 uses it for ECDH-ES. */
function concatKdf(sharedSecret: Buffer, enc: string, keyBits: number): Buffer {
  const otherInfo = Buffer.concat([
    lengthPrefixed(Buffer.from(enc, 'ascii')),
    lengthPrefixed(Buffer.alloc(0)),
    lengthPrefixed(Buffer.alloc(0)),
    uint32(keyBits),
  ]);
  return createHash('sha256')
    .update(Buffer.concat([uint32(1), sharedSecret, otherInfo]))
    .digest()
    .subarray(0, keyBits / 8);
}

export interface BuildJweOptions {
  /** The session's ECDH-ES public key as the request object advertised it (with its `kid`). */
  recipientJwk: JWK;
  payload: Record<string, unknown>;
  enc?: 'A128GCM' | 'A256GCM';
  /** `DEF`: the payload is deflated and the header says so (RFC 7516 §4.1.3). */
  zip?: 'DEF';
}

export function buildJwe(options: BuildJweOptions): string {
  const enc = options.enc ?? 'A128GCM';
  const keyBits = enc === 'A128GCM' ? 128 : 256;
  const ephemeral = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  const epk = ephemeral.publicKey.export({ format: 'jwk' });
  const header = {
    alg: 'ECDH-ES',
    enc,
    ...(options.recipientJwk.kid ? { kid: options.recipientJwk.kid } : {}),
    epk: { kty: epk.kty, crv: epk.crv, x: epk.x, y: epk.y },
    ...(options.zip ? { zip: options.zip } : {}),
  };
  const sharedSecret = diffieHellman({
    privateKey: ephemeral.privateKey,
    publicKey: createPublicKey({ key: options.recipientJwk as never, format: 'jwk' }),
  });
  const cek = concatKdf(sharedSecret, enc, keyBits);
  const protectedHeader = Buffer.from(JSON.stringify(header)).toString('base64url');
  const json = Buffer.from(JSON.stringify(options.payload));
  const plaintext = options.zip ? deflateRawSync(json) : json;
  const iv = randomBytes(12);
  const cipher = createCipheriv(keyBits === 128 ? 'aes-128-gcm' : 'aes-256-gcm', cek, iv);
  cipher.setAAD(Buffer.from(protectedHeader, 'ascii'));
  const ciphertext = Buffer.concat([cipher.update(plaintext), cipher.final()]);
  return [
    protectedHeader,
    '',
    iv.toString('base64url'),
    ciphertext.toString('base64url'),
    cipher.getAuthTag().toString('base64url'),
  ].join('.');
}
