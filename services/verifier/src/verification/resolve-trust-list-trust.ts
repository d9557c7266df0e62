import type { TrustListEntity } from '@tessera/contracts';
import { readPemBlocks } from '@tessera/service-kit';
import { certificateFingerprint } from '../crypto/certificate-fingerprint.js';
import { parseCertificateDer } from '../crypto/parsed-certificates.js';
import type { x509 } from '../crypto/x509.js';
import {
  resolveTrustStore,
  type ResolvedTrustStore,
  type TrustedCertificate,
  type TrustListAttribution,
  type VerificationCache,
} from './trust-store.js';
import { credentialTypeName, trustingIssuers } from '../domain/trusting-issuers.js';

export interface ResolveTrustListTrustOptions {
  ecosystemId: string;
  sequence: number;
  entities: readonly TrustListEntity[];
  /** The replica's cache: CA anchors of the same content resolve to the same store, so validated chains are found again. */
  cache: VerificationCache;
}

/**
 * The trust an ecosystem's list grants (VERIFIER README, "Trust from an
 * ecosystem list"), as the verification engine takes it: every current CA
 * certificate of an active issuer entity is an anchor limited to the types the
 * entity may issue; every leaf certificate of one is trusted exactly (by
 * fingerprint), with the same limit. Nothing else is trusted — no DID, no
 * organisation or platform anchor. Resolved once per snapshot: a changed list
 * is another snapshot, whose anchors (by content) key other validated chains.
 */
export function resolveTrustListTrust(options: ResolveTrustListTrustOptions): ResolvedTrustStore {
  const anchors: TrustedCertificate[] = [];
  const pinnedLeaves = new Map<string, x509.X509Certificate>();
  const leafTypes = new Map<string, Set<string>>();
  const entities = new Map<string, Array<{ id: string; name: string; credentialTypes: ReadonlySet<string> }>>();
  for (const entity of trustingIssuers(options.entities)) {
    const credentialTypes = entity.allowedCredentialTypes.map(credentialTypeName);
    const named = { id: entity.id, name: entity.name, credentialTypes: new Set(credentialTypes) };
    for (const listed of entity.certificates) {
      const certificate = parseListed(listed.pem);
      // A certificate that does not parse can grant nothing; the others still do.
      if (!certificate) continue;
      const fingerprint = certificateFingerprint(certificate);
      if (listed.kind === 'ca') {
        anchors.push({ certificate: listed.pem, credentialTypes });
      } else {
        pinnedLeaves.set(fingerprint, certificate);
        leafTypes.set(fingerprint, new Set([...(leafTypes.get(fingerprint) ?? []), ...credentialTypes]));
      }
      entities.set(fingerprint, [...(entities.get(fingerprint) ?? []), named]);
    }
  }
  const base = resolveTrustStore({ certificates: anchors, dids: [] }, options.cache);
  // The resolved CA store may be shared (by content) with other snapshots: the leaf limits go into a copy of its limits.
  const certificateTypes = new Map(base.credentialTypes.certificates);
  for (const [fingerprint, types] of leafTypes) certificateTypes.set(fingerprint, types);
  const trustList: TrustListAttribution = { ecosystemId: options.ecosystemId, sequence: options.sequence, entities };
  return { ...base, credentialTypes: { certificates: certificateTypes, dids: new Map() }, pinnedLeaves, trustList };
}

function parseListed(pem: string): x509.X509Certificate | undefined {
  try {
    const block = readPemBlocks(pem)[0];
    return block ? parseCertificateDer(block.der) : undefined;
  } catch {
    return undefined;
  }
}
