import { validateCertificateChain } from '../crypto/certificate-chain.js';
import { statusListSigner } from '../crypto/certificate-purposes.js';
import { x509 } from '../crypto/x509.js';
import type { IssuerKeySource, IssuerTrust } from './issuer-key.js';
import { certificateFingerprint, chainAnchorsOf, type ResolvedTrustStore } from './trust-store.js';

export interface CheckStatusListSignerOptions {
  /** The key that signed the status list token (its x5c chain or DID). */
  signer: IssuerKeySource;
  /** How the credential's issuer was trusted, with its leaf. */
  issuer: IssuerTrust;
  trust: ResolvedTrustStore;
  now: Date;
  /** The OID of `id-kp-oauthStatusSigning`, when configured (`STATUS_LIST_SIGNING_EKU`). */
  statusSigningEku?: string;
}

/**
 * A status list token is trusted only when the credential's issuer signed it,
 * or an entity the issuer authorised (draft-ietf-oauth-status-list,
 * Introduction and "Key Resolution and Trust Management"): otherwise any other
 * issuer under a shared CA could revoke, or un-revoke, someone else's
 * credentials. Accepted signers, each chaining to the very anchor the
 * credential's chain did:
 * - the issuer's own certificate (same DER);
 * - a certificate with the issuer's subject (the issuer rotated its key);
 * - a certificate carrying the Token Status List signing EKU
 *   (`id-kp-oauthStatusSigning`, "X.509 Certificate Extended Key Usage
 *   Extension"), the draft's mark of a delegated status issuer.
 * A DID issuer's list must be signed by that same DID. Returns the problem, or undefined.
 */
export async function checkStatusListSigner(options: CheckStatusListSignerOptions): Promise<string | undefined> {
  const { signer, issuer } = options;
  if (issuer.kind === 'did') {
    if (signer.kind !== 'did')
      return `the credential's issuer is ${issuer.did}, but the token is signed with an x5c certificate`;
    return signer.did === issuer.did
      ? undefined
      : `the token is signed by ${signer.did}, not by the credential's issuer ${issuer.did}`;
  }
  if (signer.kind !== 'x5c')
    return `the credential's issuer is a certificate, but the token is signed by ${signer.did}`;
  const validated = await validateCertificateChain({
    chain: signer.chain,
    ...chainAnchorsOf(options.trust),
    now: options.now,
    purpose: statusListSigner(options.statusSigningEku),
  });
  if (!validated.ok) return `the token's signer is not trusted: ${validated.message}`;
  if (certificateFingerprint(validated.anchor) !== issuer.anchorFingerprint)
    return "the token's signer chains to another trust anchor than the credential's issuer";
  const leaf = validated.leaf;
  if (Buffer.from(leaf.rawData).equals(Buffer.from(issuer.leaf.rawData))) return undefined;
  if (leaf.subject === issuer.leaf.subject) return undefined;
  const usages = leaf.getExtension(x509.ExtendedKeyUsageExtension)?.usages.map(String) ?? [];
  if (options.statusSigningEku && usages.includes(options.statusSigningEku)) return undefined;
  return `the token is signed by "${leaf.subject}", which is neither the credential's issuer "${issuer.leaf.subject}" nor a status list signer (extendedKeyUsage id-kp-oauthStatusSigning${options.statusSigningEku ? ` ${options.statusSigningEku}` : ', not configured'})`;
}
