import { createHash } from 'node:crypto';
import type { CertificateKind } from '@tessera/contracts';
import { readPemBlocks, toPem } from '@tessera/service-kit';
import { x509 } from '@tessera/service-kit/x509';

/** What the registry keeps of an uploaded certificate. Identifiers are lowercase hex without separators. */
export interface ReadCertificate {
  /** The certificate alone, re-encoded from its DER (text around the PEM block is dropped). */
  pem: string;
  /** SHA-256 of the DER. */
  fingerprint: string;
  /** RFC 4514 string. */
  subject: string;
  ski: string | null;
  aki: string | null;
  notBefore: Date;
  notAfter: Date;
  /** `ca` iff basicConstraints says cA=true. */
  kind: CertificateKind;
}

export type ReadCertificateResult = { ok: true; certificate: ReadCertificate } | { ok: false; problem: string };

/**
 * Parses one uploaded PEM: exactly one PEM block, labelled CERTIFICATE, holding an
 * X.509 certificate. Explanatory text around the block (RFC 7468 §2) is ignored.
 * Whether the certificate may be trusted (validity, SKI of a CA) is `vetCertificates`'s call.
 */
export function readCertificate(pem: string): ReadCertificateResult {
  const blocks = readPemBlocks(pem);
  if (blocks.length !== 1) return { ok: false, problem: `must hold exactly one PEM block, found ${blocks.length}` };
  const [block] = blocks as [(typeof blocks)[0]];
  if (block.label !== 'CERTIFICATE') return { ok: false, problem: `must be a CERTIFICATE, not a ${block.label}` };
  try {
    const certificate = new x509.X509Certificate(block.der);
    const ski = certificate.getExtension(x509.SubjectKeyIdentifierExtension)?.keyId ?? null;
    const aki = certificate.getExtension(x509.AuthorityKeyIdentifierExtension)?.keyId ?? null;
    const ca = certificate.getExtension(x509.BasicConstraintsExtension)?.ca === true;
    return {
      ok: true,
      certificate: {
        pem: toPem('CERTIFICATE', block.der),
        fingerprint: createHash('sha256').update(block.der).digest('hex'),
        subject: certificate.subject,
        ski: ski ? ski.toLowerCase() : null,
        aki: aki ? aki.toLowerCase() : null,
        notBefore: certificate.notBefore,
        notAfter: certificate.notAfter,
        kind: ca ? 'ca' : 'leaf',
      },
    };
  } catch {
    return { ok: false, problem: 'is not a parseable X.509 certificate' };
  }
}
