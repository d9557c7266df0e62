import { X509Certificate as NodeX509Certificate, type KeyObject } from 'node:crypto';
import { LRUCache } from 'lru-cache';
import { x509 } from './x509.js';

// Parsing X.509 in JavaScript (asn1js) is the costliest step of judging an
// issuer chain, and issuers present the same few certificates again and again.
// A parse depends on the DER bytes alone, so the results are shared, bounded,
// least recently used first out. Parsed objects are never mutated by the service.

const MAX_CERTIFICATES = 5000;

const parsed = new LRUCache<string, x509.X509Certificate>({ max: MAX_CERTIFICATES });
const publicKeys = new LRUCache<string, KeyObject>({ max: MAX_CERTIFICATES });

/** DER bytes, or their base64 text as in `x5c`. */
export type CertificateDer = Uint8Array | string;

function cacheKey(der: CertificateDer): string {
  return typeof der === 'string' ? der : Buffer.from(der.buffer, der.byteOffset, der.byteLength).toString('base64');
}

function bytesOf(der: CertificateDer): Buffer {
  return typeof der === 'string' ? Buffer.from(der, 'base64') : Buffer.from(der.buffer, der.byteOffset, der.byteLength);
}

/** The certificate parsed from DER (throws when it does not parse; failures are not remembered). */
export function parseCertificateDer(der: CertificateDer): x509.X509Certificate {
  const key = cacheKey(der);
  let certificate = parsed.get(key);
  if (!certificate) {
    certificate = new x509.X509Certificate(bytesOf(der));
    parsed.set(key, certificate);
  }
  return certificate;
}

/** The certificate's subject public key as a node:crypto KeyObject (what jose verifies with). */
export function certificatePublicKey(der: CertificateDer): KeyObject {
  const key = cacheKey(der);
  let publicKey = publicKeys.get(key);
  if (!publicKey) {
    publicKey = new NodeX509Certificate(bytesOf(der)).publicKey;
    publicKeys.set(key, publicKey);
  }
  return publicKey;
}
