import { LRUCache } from 'lru-cache';
import { ValidatedChains } from '../crypto/validated-chains.js';
import type { ResolvedTrustStore } from '../verification/trust-store.js';

/**
 * What one replica remembers between verifications, so the same trust store
 * and the same issuer chains are not derived again for every presentation
 * (made once by `buildApp`). Every entry is keyed by the content it was derived
 * from — the anchors as read for this verification, the exact chain bytes — so
 * a changed or removed anchor is never served from here, on any replica, and
 * nothing needs to be told to forget. Bounded, least recently used out.
 */
export interface VerificationCache {
  /** Resolved trust stores by the content of the trust they were built from. */
  trustStores: LRUCache<string, ResolvedTrustStore>;
  /** Chains that validated, by chain bytes, purpose and anchor set. */
  chains: ValidatedChains;
}

export function createVerificationCache(
  options: { maxTrustStores?: number; maxChains?: number } = {},
): VerificationCache {
  return {
    trustStores: new LRUCache({ max: options.maxTrustStores ?? 1000 }),
    chains: new ValidatedChains(options.maxChains ?? 5000),
  };
}
