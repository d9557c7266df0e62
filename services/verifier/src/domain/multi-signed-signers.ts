import type { ResolvedSigner } from './request-signer.js';

/**
 * Who signs an `openid4vp-v1-multisigned` request (OpenID4VP 1.0 Appendix A.3.2):
 * every request signer the organisation holds, so a wallet of any trust framework
 * finds one it recognises — the session's own signer first (its `client_id` is the
 * session's), then its P-256 X.509 chain (platform-issued or imported), the
 * `did:jwk` of that key, and its Ed25519 X.509 chain when it has an Ed25519 key.
 * The extra X.509 signers use `x509_hash`, which every chain can be named by.
 */
export function multiSignedSigners(own: ResolvedSigner, options: { hasEd25519Key: boolean }): ResolvedSigner[] {
  const candidates: ResolvedSigner[] = [
    own,
    { method: 'X509_P256', clientIdPrefix: 'x509_hash', keyType: 'P256' },
    { method: 'DID', clientIdPrefix: 'decentralized_identifier', keyType: 'P256' },
    ...(options.hasEd25519Key
      ? [{ method: 'X509_ED25519', clientIdPrefix: 'x509_hash', keyType: 'ED25519' } as const]
      : []),
  ];
  return candidates.filter(
    (signer, index) => candidates.findIndex((other) => other.method === signer.method) === index,
  );
}
