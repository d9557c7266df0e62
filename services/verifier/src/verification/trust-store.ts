import { x509 } from './x509.js';

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

/** Parses the anchors once per verification; an anchor that does not parse cannot grant trust and is left out. */
export function resolveTrustStore(trust: TrustStore): ResolvedTrustStore {
  const certificates: x509.X509Certificate[] = [];
  for (const entry of trust.certificates) {
    if (typeof entry !== 'string') {
      certificates.push(entry);
      continue;
    }
    for (const block of entry.match(/-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/g) ?? []) {
      try {
        certificates.push(new x509.X509Certificate(block));
      } catch {
        // An unparseable anchor grants nothing; the others still apply.
      }
    }
  }
  return { certificates, dids: new Set(trust.dids.map((did) => did.split('#')[0] ?? did)) };
}
