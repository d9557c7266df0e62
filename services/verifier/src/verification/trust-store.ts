import { createHash } from 'node:crypto';
import { splitPemCertificates } from '@tessera/service-kit';
import { x509 } from '../crypto/x509.js';

/** A certificate anchor, optionally limited to the credential types chains under it may issue. */
export interface TrustedCertificate {
  /** PEM text (one or more certificates, all limited alike) or a parsed certificate. */
  certificate: string | x509.X509Certificate;
  /** `vct` values and mdoc doctypes allowed under this anchor; absent = any. */
  credentialTypes?: string[];
}

/** A DID anchor, optionally limited to the credential types it may issue. */
export interface TrustedDid {
  /** The DID, without fragment. */
  did: string;
  credentialTypes?: string[];
}

/**
 * Which issuers a verification trusts (VERIFIER.md, Trust anchors): CA
 * certificates (platform bundle plus the organisation's anchors) and DIDs,
 * each optionally limited to credential types. Built fresh for each
 * verification, so added or deleted anchors apply at once. A bare PEM string,
 * parsed certificate or DID string is an anchor without a type limit.
 */
export interface TrustStore {
  certificates: Array<string | x509.X509Certificate | TrustedCertificate>;
  dids: Array<string | TrustedDid>;
}

export interface ResolvedTrustStore {
  certificates: x509.X509Certificate[];
  dids: Set<string>;
  /**
   * Type limits by anchor: certificate anchors by the lowercase hex SHA-256 of
   * their DER, DID anchors by the DID. An anchor without an entry allows any
   * type. An anchor listed twice (platform bundle and organisation) allows
   * what either entry allows: a listing without a limit lifts it.
   */
  credentialTypes: { certificates: Map<string, Set<string>>; dids: Map<string, Set<string>> };
}

/**
 * Parsed anchors by PEM text. Parsing a certificate is the costliest step of
 * building the store (ASN.1 in JavaScript) and its result depends on the text
 * alone, so each distinct PEM is parsed once; which anchors apply is still
 * decided per verification from `trust`. Bounded: the oldest entry goes first.
 */
const parsedCertificates = new Map<string, x509.X509Certificate>();
const MAX_PARSED_CERTIFICATES = 1000;
const fingerprints = new WeakMap<x509.X509Certificate, string>();

function parseCertificate(pem: string): x509.X509Certificate {
  let certificate = parsedCertificates.get(pem);
  if (!certificate) {
    certificate = new x509.X509Certificate(pem);
    if (parsedCertificates.size >= MAX_PARSED_CERTIFICATES) parsedCertificates.delete(parsedCertificates.keys().next().value!);
    parsedCertificates.set(pem, certificate);
  }
  return certificate;
}

/** Lowercase hex SHA-256 of the certificate's DER: how anchors are named (trust-anchor `fingerprint`). */
export function certificateFingerprint(certificate: x509.X509Certificate): string {
  let fingerprint = fingerprints.get(certificate);
  if (!fingerprint) {
    fingerprint = createHash('sha256').update(Buffer.from(certificate.rawData)).digest('hex');
    fingerprints.set(certificate, fingerprint);
  }
  return fingerprint;
}

/** Resolves the anchors for one verification; an anchor that does not parse cannot grant trust and is left out. */
export function resolveTrustStore(trust: TrustStore): ResolvedTrustStore {
  const certificates: x509.X509Certificate[] = [];
  const unlimited: x509.X509Certificate[] = [];
  const certificateLimits = new LimitCollector();
  for (const entry of trust.certificates) {
    const limited = typeof entry === 'object' && 'certificate' in entry && !(entry instanceof x509.X509Certificate) ? entry : undefined;
    for (const parsed of parseEntry(limited ? limited.certificate : (entry as string | x509.X509Certificate))) {
      if (!limited?.credentialTypes) {
        certificates.push(parsed);
        unlimited.push(parsed);
        continue;
      }
      let fingerprint: string;
      try {
        fingerprint = certificateFingerprint(parsed);
      } catch {
        continue; // A limited anchor that cannot be identified could not have its limit applied: it grants nothing.
      }
      certificates.push(parsed);
      certificateLimits.add(fingerprint, limited.credentialTypes);
    }
  }
  // The same certificate also listed without a limit lifts the limit; only identified when some anchor is limited.
  if (certificateLimits.size > 0) {
    for (const certificate of unlimited) {
      try {
        certificateLimits.add(certificateFingerprint(certificate), undefined);
      } catch {
        // Not identifiable, so not the same as any limited anchor; chain validation will judge it.
      }
    }
  }
  const dids = new Set<string>();
  const didLimits = new LimitCollector();
  for (const entry of trust.dids) {
    const { did, credentialTypes } = typeof entry === 'string' ? { did: entry, credentialTypes: undefined } : entry;
    const plain = did.split('#')[0] ?? did;
    dids.add(plain);
    didLimits.add(plain, credentialTypes);
  }
  return { certificates, dids, credentialTypes: { certificates: certificateLimits.limits(), dids: didLimits.limits() } };
}

function parseEntry(certificate: string | x509.X509Certificate): x509.X509Certificate[] {
  if (typeof certificate !== 'string') return [certificate];
  const parsed: x509.X509Certificate[] = [];
  for (const block of splitPemCertificates(certificate)) {
    try {
      parsed.push(parseCertificate(block));
    } catch {
      // An unparseable anchor grants nothing; the others still apply.
    }
  }
  return parsed;
}

/** Union of the type limits given for one anchor; one listing without a limit means any type. */
class LimitCollector {
  private readonly byAnchor = new Map<string, Set<string> | 'any'>();

  get size(): number {
    return this.byAnchor.size;
  }

  add(anchor: string, credentialTypes: string[] | undefined): void {
    const known = this.byAnchor.get(anchor);
    if (known === 'any') return;
    if (!credentialTypes) {
      this.byAnchor.set(anchor, 'any');
      return;
    }
    this.byAnchor.set(anchor, new Set([...(known ?? []), ...credentialTypes]));
  }

  limits(): Map<string, Set<string>> {
    return new Map([...this.byAnchor].filter((entry): entry is [string, Set<string>] => entry[1] !== 'any'));
  }
}
