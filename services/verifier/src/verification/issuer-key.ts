import { createPublicKey, type KeyObject } from 'node:crypto';
import type { JWK } from 'jose';
import { resolveDid } from './resolve-did.js';
import { certificateFingerprint, chainAnchorsOf, type ResolvedTrustStore } from './trust-store.js';
import { validateCertificateChain } from '../crypto/certificate-chain.js';
import type { CertificatePurpose } from '../crypto/certificate-purposes.js';
import { certificatePublicKey, parseCertificateDer } from '../crypto/parsed-certificates.js';
import type { x509 } from '../crypto/x509.js';

/** Signature algorithms accepted for issuer-signed JWTs (HAIP requires ES256; the rest are common asymmetric ones). */
export const JWS_ALGORITHMS = ['ES256', 'ES384', 'ES512', 'EdDSA', 'Ed25519', 'PS256', 'PS384', 'PS512'];

/** Where an issuer's key came from: the leaf of its `x5c` chain, or a DID in `kid`/`iss`. */
export type IssuerKeySource =
  { kind: 'x5c'; chain: x509.X509Certificate[]; key: KeyObject } | { kind: 'did'; did: string; key: KeyObject };

/**
 * Why an issuer is trusted: the anchor its chain validated to (and the leaf
 * that signed, which a status list token's signer is compared with), or the DID anchor.
 */
export type IssuerTrust =
  | {
      kind: 'certificate';
      anchorFingerprint: string;
      leaf: x509.X509Certificate;
      name: string;
      /** The validated path, leaf first, without the anchor; and the anchor (DCQL `aki` matching reads both). */
      path: x509.X509Certificate[];
      anchor: x509.X509Certificate;
    }
  | { kind: 'did'; did: string; name: string };

export interface FindIssuerKeyOptions {
  /** The JWS protected header. */
  header: Record<string, unknown>;
  /** The payload's `iss`, when there is one. */
  iss?: unknown;
}

export type FindIssuerKeyResult = { ok: true; source: IssuerKeySource } | { ok: false; message: string };

/**
 * Finds the issuer's public key the only ways VERIFIER.md trusts: an `x5c`
 * chain (its leaf's key) or a DID (`kid` as DID URL, else a DID `iss`),
 * resolved offline. Whether `iss` names that key's holder is a check of its
 * own (`check-issuer-identifier.ts`, ISSUER_MISMATCH).
 */
export function findIssuerKey(options: FindIssuerKeyOptions): FindIssuerKeyResult {
  const { header, iss } = options;
  if (header.x5c !== undefined) {
    if (
      !Array.isArray(header.x5c) ||
      header.x5c.length === 0 ||
      !header.x5c.every((entry) => typeof entry === 'string')
    ) {
      return { ok: false, message: 'the x5c header is not an array of base64 certificates' };
    }
    // Parsed and imported once per distinct certificate (parsed-certificates.ts).
    const chain = header.x5c.map((entry: string) => parseCertificateDer(entry));
    return { ok: true, source: { kind: 'x5c', chain, key: certificatePublicKey(header.x5c[0] as string) } };
  }
  const kid = typeof header.kid === 'string' && header.kid.startsWith('did:') ? header.kid : undefined;
  const issuerDid = typeof iss === 'string' && iss.startsWith('did:') ? iss : undefined;
  const didUrl = kid ?? issuerDid;
  if (!didUrl) return { ok: false, message: 'the issuer key is neither in an x5c chain nor identified by a DID' };
  const resolved = resolveDid({ did: didUrl });
  if (!resolved.ok) return { ok: false, message: resolved.message };
  return {
    ok: true,
    source: {
      kind: 'did',
      did: resolved.did,
      key: createPublicKey({ key: resolved.publicJwk as JWK & Record<string, string>, format: 'jwk' }),
    },
  };
}

export interface CheckIssuerTrustOptions {
  source: IssuerKeySource;
  trust: ResolvedTrustStore;
  now: Date;
  /** What the x5c leaf signs with: an extendedKeyUsage on it must allow this. */
  purpose: CertificatePurpose;
}

export type CheckIssuerTrustResult = { ok: true; trust: IssuerTrust } | { ok: false; message: string };

/** Trust for a key found by {@link findIssuerKey}: its chain validates to a certificate anchor, or its DID is an anchor. */
export async function checkIssuerTrust(options: CheckIssuerTrustOptions): Promise<CheckIssuerTrustResult> {
  const { source } = options;
  if (source.kind === 'did') {
    if (!options.trust.dids.has(source.did))
      return { ok: false, message: `the issuer DID ${source.did} is not a trust anchor` };
    return { ok: true, trust: { kind: 'did', did: source.did, name: source.did } };
  }
  const validated = await validateCertificateChain({
    chain: source.chain,
    ...chainAnchorsOf(options.trust),
    now: options.now,
    purpose: options.purpose,
  });
  if (!validated.ok) return { ok: false, message: validated.message };
  return {
    ok: true,
    trust: {
      kind: 'certificate',
      anchorFingerprint: certificateFingerprint(validated.anchor),
      leaf: validated.leaf,
      name: validated.leaf.subject,
      path: validated.path,
      anchor: validated.anchor,
    },
  };
}
