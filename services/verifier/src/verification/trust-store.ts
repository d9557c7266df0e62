import { splitPemCertificates } from '@tessera/service-kit';
import { x509 } from '../crypto/x509.js';

/**
 * Which issuers a verification trusts (VERIFIER.md, Trust anchors): CA
 * certificates (platform bundle plus the organisation's anchors) and DIDs.
 * Built fresh for each verification, so added or deleted anchors apply at once.
 */
export interface TrustStore {
  /** CA certificates: PEM text (one or more certificates) or parsed certificates. */
  certificates: Array<string | x509.X509Certificate>;
  /** Trusted issuer DIDs (`did:jwk`, `did:key`), without fragment. */
  dids: string[];
}

export interface ResolvedTrustStore {
  certificates: x509.X509Certificate[];
  dids: Set<string>;
}

/**
 * Parsed anchors by PEM text. Parsing a certificate is the costliest step of
 * building the store (ASN.1 in JavaScript) and its result depends on the text
 * alone, so each distinct PEM is parsed once; which anchors apply is still
 * decided per verification from `trust`. Bounded: the oldest entry goes first.
 */
const parsedCertificates = new Map<string, x509.X509Certificate>();
const MAX_PARSED_CERTIFICATES = 1000;

function parseCertificate(pem: string): x509.X509Certificate {
  let certificate = parsedCertificates.get(pem);
  if (!certificate) {
    certificate = new x509.X509Certificate(pem);
    if (parsedCertificates.size >= MAX_PARSED_CERTIFICATES) parsedCertificates.delete(parsedCertificates.keys().next().value!);
    parsedCertificates.set(pem, certificate);
  }
  return certificate;
}

/** Resolves the anchors for one verification; an anchor that does not parse cannot grant trust and is left out. */
export function resolveTrustStore(trust: TrustStore): ResolvedTrustStore {
  const certificates: x509.X509Certificate[] = [];
  for (const entry of trust.certificates) {
    if (typeof entry !== 'string') {
      certificates.push(entry);
      continue;
    }
    for (const block of splitPemCertificates(entry)) {
      try {
        certificates.push(parseCertificate(block));
      } catch {
        // An unparseable anchor grants nothing; the others still apply.
      }
    }
  }
  return { certificates, dids: new Set(trust.dids.map((did) => did.split('#')[0] ?? did)) };
}
