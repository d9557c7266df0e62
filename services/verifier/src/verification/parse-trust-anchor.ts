import { createHash } from 'node:crypto';
import { splitPemCertificates } from '@tessera/service-kit';
import { checkCaCertificate } from '../crypto/certificate-chain.js';
import { x509 } from '../crypto/x509.js';
import { resolveDid } from './resolve-did.js';

export type ParseTrustAnchorOptions = { certificatePem: string } | { did: string };

/** What the trust-anchor routes store and answer (VERIFIER.md, Trust anchors). */
export type TrustAnchorDescription =
  | { kind: 'certificate'; subject: string; notAfter: string; fingerprint: string }
  | { kind: 'did'; subject: string; fingerprint: string };

export type ParseTrustAnchorResult = { ok: true; anchor: TrustAnchorDescription } | { ok: false; message: string };

/**
 * Checks a candidate trust anchor: a single CA certificate in PEM
 * (basicConstraints cA true and keyUsage keyCertSign: `checkCaCertificate`), or a
 * `did:jwk` / `did:key` that resolves offline. The fingerprint is the
 * lowercase hex SHA-256 of the DER, or of the DID string.
 */
export function parseTrustAnchor(options: ParseTrustAnchorOptions): ParseTrustAnchorResult {
  if ('did' in options) return parseDid(options.did);
  const blocks = splitPemCertificates(options.certificatePem);
  if (blocks.length !== 1) return { ok: false, message: 'certificatePem must hold exactly one PEM certificate' };
  let certificate: x509.X509Certificate;
  try {
    certificate = new x509.X509Certificate(blocks[0]!);
  } catch {
    return { ok: false, message: 'certificatePem is not a valid X.509 certificate' };
  }
  const notCa = checkCaCertificate(certificate);
  if (notCa) return { ok: false, message: `a trust anchor must be a CA certificate: the certificate ${notCa}` };
  return {
    ok: true,
    anchor: {
      kind: 'certificate',
      subject: certificate.subject,
      notAfter: certificate.notAfter.toISOString(),
      fingerprint: createHash('sha256').update(Buffer.from(certificate.rawData)).digest('hex'),
    },
  };
}

function parseDid(did: string): ParseTrustAnchorResult {
  if (did.includes('#') || did.includes('?'))
    return { ok: false, message: 'a DID anchor must be a plain DID, without fragment or query' };
  const resolved = resolveDid({ did });
  if (!resolved.ok) return { ok: false, message: resolved.message };
  return {
    ok: true,
    anchor: { kind: 'did', subject: did, fingerprint: createHash('sha256').update(did, 'utf8').digest('hex') },
  };
}
