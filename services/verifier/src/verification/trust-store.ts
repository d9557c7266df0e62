import { createHash } from 'node:crypto';
import { readPemBlocks, splitPemCertificates } from '@tessera/service-kit';
import { certificateFingerprint } from '../crypto/certificate-fingerprint.js';
import { parseCertificateDer } from '../crypto/parsed-certificates.js';
import type { ValidatedChains } from '../crypto/validated-chains.js';
import { x509 } from '../crypto/x509.js';

export { certificateFingerprint };

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
  /** The replica's validated chains, to judge chains against `certificates` without repeating work (`validated-chains.ts`). */
  chains?: ValidatedChains;
  /**
   * Leaves trusted exactly, by fingerprint (an ecosystem trust list's leaf
   * entries): a chain they lead is anchored by the leaf itself, and their type
   * limits are in `credentialTypes.certificates` under the same fingerprint.
   */
  pinnedLeaves?: ReadonlyMap<string, x509.X509Certificate>;
  /** Set when the trust is an ecosystem's list: which entities the anchors stand for, so a result can name its issuer's. */
  trustList?: TrustListAttribution;
}

/**
 * What the engine may remember between verifications, so the same trust store and the
 * same issuer chains are not derived again for every presentation: the replica's
 * (`state/verification-cache.ts`, one per app). Every entry is keyed by the content it
 * was derived from, so a changed or removed anchor is never served from here.
 */
export interface VerificationCache {
  /** Resolved trust stores by the content of the trust they were built from. */
  trustStores: {
    get(key: string): ResolvedTrustStore | undefined;
    set(key: string, store: ResolvedTrustStore): unknown;
  };
  /** Chains that validated, by chain bytes, purpose and anchor set. */
  chains: ValidatedChains;
}

/** The trusted entities of an ecosystem list behind each anchor, and the list's sequence. */
export interface TrustListAttribution {
  ecosystemId: string;
  sequence: number;
  /** By anchor fingerprint (CA entry or pinned leaf): the active issuer entities listing it, with the types each allows. */
  entities: ReadonlyMap<string, ReadonlyArray<{ id: string; name: string; credentialTypes: ReadonlySet<string> }>>;
}

/** The validation options a resolved store gives a chain check: its anchors, pinned leaves and the replica's chain cache. */
export function chainAnchorsOf(trust: ResolvedTrustStore): {
  anchors: x509.X509Certificate[];
  cache?: ValidatedChains;
  pinnedLeaves?: ReadonlyMap<string, x509.X509Certificate>;
} {
  return {
    anchors: trust.certificates,
    ...(trust.chains ? { cache: trust.chains } : {}),
    ...(trust.pinnedLeaves ? { pinnedLeaves: trust.pinnedLeaves } : {}),
  };
}

/** True for a store already resolved (an ecosystem list's, resolved once per snapshot) rather than anchors to resolve. */
export function isResolvedTrustStore(trust: TrustStore | ResolvedTrustStore): trust is ResolvedTrustStore {
  return 'credentialTypes' in trust;
}

/**
 * Resolves the anchors for one verification; an anchor that does not parse
 * cannot grant trust and is left out. With a cache, a trust that reads the
 * same as before (same anchors as text, same limits) gets the same resolved
 * store again — the same anchor array, so its validated chains are found
 * again — and any change of content gives another.
 */
export function resolveTrustStore(trust: TrustStore, cache?: VerificationCache): ResolvedTrustStore {
  const key = cache ? contentKey(trust) : undefined;
  if (!cache || key === undefined) return { ...buildTrustStore(trust), ...(cache ? { chains: cache.chains } : {}) };
  let resolved = cache.trustStores.get(key);
  if (!resolved) {
    resolved = { ...buildTrustStore(trust), chains: cache.chains };
    cache.trustStores.set(key, resolved);
  }
  return resolved;
}

/** A digest of the trust's content; undefined when it holds parsed certificates (no text to name them by). */
function contentKey(trust: TrustStore): string | undefined {
  const hash = createHash('sha256');
  for (const entry of trust.certificates) {
    const limited =
      typeof entry === 'object' && 'certificate' in entry && !(entry instanceof x509.X509Certificate)
        ? entry
        : undefined;
    const certificate = limited ? limited.certificate : entry;
    if (typeof certificate !== 'string') return undefined;
    hash.update('C').update(JSON.stringify([certificate, limited?.credentialTypes ?? null]));
  }
  for (const entry of trust.dids)
    hash
      .update('D')
      .update(JSON.stringify(typeof entry === 'string' ? [entry, null] : [entry.did, entry.credentialTypes ?? null]));
  return hash.digest('base64url');
}

function buildTrustStore(trust: TrustStore): Omit<ResolvedTrustStore, 'chains'> {
  const certificates: x509.X509Certificate[] = [];
  const unlimited: x509.X509Certificate[] = [];
  const certificateLimits = new LimitCollector();
  for (const entry of trust.certificates) {
    const limited =
      typeof entry === 'object' && 'certificate' in entry && !(entry instanceof x509.X509Certificate)
        ? entry
        : undefined;
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
  return {
    certificates,
    dids,
    credentialTypes: { certificates: certificateLimits.limits(), dids: didLimits.limits() },
  };
}

function parseEntry(certificate: string | x509.X509Certificate): x509.X509Certificate[] {
  if (typeof certificate !== 'string') return [certificate];
  const parsed: x509.X509Certificate[] = [];
  for (const block of splitPemCertificates(certificate)) {
    try {
      // One parse per distinct certificate, shared with chains that carry it (crypto/parsed-certificates.ts).
      parsed.push(parseCertificateDer(readPemBlocks(block)[0]!.der));
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
