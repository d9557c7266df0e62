import { readTrustAnchorMaterial } from '../../db/trust-anchors.js';
import type { VerifierDb } from '../../db/types.js';
import type { TrustStore } from '../../verification/index.js';

// Shared step: the trust a verification uses (wallet responses, DC API responses).

/** The trust store of one organisation, read fresh for each verification. */
export type LoadTrustStore = (orgId: string) => Promise<TrustStore>;

export interface TrustStoreLoaderDeps {
  db: VerifierDb;
  /** CA certificates (PEM) of TRUSTED_ISSUERS_FILE: trusted for every organisation. */
  trustedIssuers: string[];
}

/**
 * The platform bundle plus the organisation's anchors, read from the database
 * for each verification so an anchor added or deleted applies to the very next one.
 */
export function createTrustStoreLoader(deps: TrustStoreLoaderDeps): LoadTrustStore {
  return async (orgId) => {
    const own = await readTrustAnchorMaterial(deps.db, orgId);
    return { certificates: [...deps.trustedIssuers, ...own.certificates], dids: own.dids };
  };
}
