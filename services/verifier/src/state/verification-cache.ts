import { LRUCache } from 'lru-cache';
import { ValidatedChains } from '../crypto/validated-chains.js';
import type { ResolvedTrustStore, VerificationCache } from '../verification/trust-store.js';

/**
 * What one replica remembers between verifications (the engine's `VerificationCache`),
 * made once by `buildApp` and handed to every verification and to the trust-list
 * snapshots. Every entry is keyed by the content it was derived from — the anchors as
 * read for this verification, the exact chain bytes — so a changed or removed anchor
 * is never served from here, on any replica, and nothing needs to be told to forget.
 * Bounded, least recently used out.
 */
export function createVerificationCache(
  options: { maxTrustStores?: number; maxChains?: number } = {},
): VerificationCache {
  return {
    trustStores: new LRUCache<string, ResolvedTrustStore>({ max: options.maxTrustStores ?? 1000 }),
    chains: new ValidatedChains(options.maxChains ?? 5000),
  };
}
