import { createHash } from 'node:crypto';
import { LRUCache } from 'lru-cache';
import { certificateFingerprint } from './certificate-fingerprint.js';
import type { CertificatePurpose } from './certificate-purposes.js';
import type { x509 } from './x509.js';

/**
 * Chains that passed validation, so the same issuer chain is not re-derived
 * for every presentation. Invariants:
 * - the key is the exact chain bytes, the purpose asked for and the exact set
 *   of anchors (by content) it was validated against: a removed, added or
 *   changed anchor gives another key, so a cached result never outlives the
 *   anchors it depended on — on any replica, as each reads its anchors itself;
 * - only the time-independent part of the result is reused: every use checks
 *   the clock against the window in which every certificate of the path is
 *   valid, and outside it the chain is validated in full again;
 * - only successes are kept: a refused chain always gets the full validation
 *   and its exact problem.
 */
export interface ValidatedChain {
  leaf: x509.X509Certificate;
  anchor: x509.X509Certificate;
  path: x509.X509Certificate[];
  /** Latest notBefore of the path and anchor (ms). */
  validFrom: number;
  /** Earliest notAfter of the path and anchor (ms). */
  validUntil: number;
}

const anchorSetKeys = new WeakMap<readonly x509.X509Certificate[], string>();

/** Names an anchor set by its content (the fingerprints, in order); remembered per array. */
function anchorSetKey(anchors: readonly x509.X509Certificate[]): string {
  let key = anchorSetKeys.get(anchors);
  if (key === undefined) {
    const hash = createHash('sha256');
    for (const anchor of anchors) hash.update(certificateFingerprint(anchor)).update(',');
    key = hash.digest('base64url');
    anchorSetKeys.set(anchors, key);
  }
  return key;
}

/** The cache key of one validation: chain bytes, purpose (its EKUs) and anchor set. */
export function validatedChainKey(
  chain: readonly Uint8Array[],
  anchors: readonly x509.X509Certificate[],
  purpose: CertificatePurpose,
): string {
  const hash = createHash('sha256');
  for (const der of chain) hash.update(String(der.byteLength)).update(':').update(der);
  hash
    .update('|')
    .update((purpose?.extendedKeyUsages ?? []).join(','))
    .update('|')
    .update(anchorSetKey(anchors));
  return hash.digest('base64url');
}

/** One replica's validated chains (made by `buildApp`, bounded, least recently used out). */
export class ValidatedChains {
  private readonly entries: LRUCache<string, ValidatedChain>;

  constructor(maxEntries = 5000) {
    this.entries = new LRUCache({ max: maxEntries });
  }

  /** How many chains are remembered. */
  get size(): number {
    return this.entries.size;
  }

  /** The cached success for `key` when `now` lies inside its validity window. */
  find(key: string, now: Date): ValidatedChain | undefined {
    const hit = this.entries.get(key);
    const time = now.getTime();
    return hit && time >= hit.validFrom && time <= hit.validUntil ? hit : undefined;
  }

  remember(key: string, result: Omit<ValidatedChain, 'validFrom' | 'validUntil'>): void {
    const all = [...result.path, result.anchor];
    this.entries.set(key, {
      ...result,
      validFrom: Math.max(...all.map((certificate) => certificate.notBefore.getTime())),
      validUntil: Math.min(...all.map((certificate) => certificate.notAfter.getTime())),
    });
  }
}
