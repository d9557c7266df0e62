import { createHash } from 'node:crypto';
import type { x509 } from './x509.js';

const fingerprints = new WeakMap<x509.X509Certificate, string>();

/**
 * Lowercase hex SHA-256 of the certificate's DER: how anchors are named
 * (trust-anchor `fingerprint`) and how cached validations name the anchors
 * they were validated against. Kept with the parsed object, computed once.
 */
export function certificateFingerprint(certificate: x509.X509Certificate): string {
  let fingerprint = fingerprints.get(certificate);
  if (!fingerprint) {
    fingerprint = createHash('sha256').update(Buffer.from(certificate.rawData)).digest('hex');
    fingerprints.set(certificate, fingerprint);
  }
  return fingerprint;
}
