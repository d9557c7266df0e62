import { readTrustAnchorMaterial, type TrustAnchorMaterial } from '../../db/trust-anchors.js';
import type { VerifierDb } from '../../db/types.js';
import type { TrustedCertificate, TrustStore } from '../../verification/index.js';

// Shared step: the trust a verification uses (wallet responses, DC API responses).

/** A platform anchor: a CA certificate (PEM), optionally limited to credential types. */
export interface TrustedIssuer {
  certificatePem: string;
  credentialTypes?: string[];
}

/**
 * The trust store of one organisation, read fresh for each verification; given
 * the organisation's anchors as read with the session (same statement), it adds
 * the platform bundle to them without reading again.
 */
export type LoadTrustStore = (orgId: string, alreadyRead?: TrustAnchorMaterial) => Promise<TrustStore>;

export interface TrustStoreLoaderDeps {
  db: VerifierDb;
  /** The anchors of TRUSTED_ISSUERS_FILE (`loadTrustedIssuers`): trusted for every organisation. */
  trustedIssuers: TrustedIssuer[];
}

/**
 * The platform bundle plus the organisation's anchors, read from the database
 * for each verification so an anchor added or deleted applies to the very next one.
 */
export function createTrustStoreLoader(deps: TrustStoreLoaderDeps): LoadTrustStore {
  return async (orgId, alreadyRead) => {
    const own = alreadyRead ?? (await readTrustAnchorMaterial(deps.db, orgId));
    const certificate = ({ certificatePem, credentialTypes }: TrustedIssuer): TrustedCertificate => ({
      certificate: certificatePem,
      ...(credentialTypes ? { credentialTypes } : {}),
    });
    return { certificates: [...deps.trustedIssuers, ...own.certificates].map(certificate), dids: own.dids };
  };
}
