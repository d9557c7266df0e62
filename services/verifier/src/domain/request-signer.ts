import type { CertificateKeyType, ClientIdPrefix, RequestSigner, SignerOption } from '@tessera/contracts';

/** The `client_id` prefix in a request object (OpenID4VP 1.0 §5.9.3). */
export type RequestClientIdPrefix = ClientIdPrefix | 'decentralized_identifier';

export interface ResolvedSigner {
  method: SignerOption;
  clientIdPrefix: RequestClientIdPrefix;
  /** Which of the organisation's keys signs: DID uses the P-256 key. */
  keyType: CertificateKeyType;
}

export interface ResolveSignerOptions {
  /** `requestSigner` from the create body, if any. */
  requested?: RequestSigner;
  /** Intent-based: the template's signer option and prefix; direct: absent (HAIP default X509_P256 + x509_hash). */
  fallback?: { method: SignerOption; clientIdPrefix?: ClientIdPrefix | null };
}

/**
 * The signer rules of VERIFIER.md: the body's `requestSigner`, else the
 * template's, else X509_P256 with `x509_hash`. `clientIdPrefix` defaults to
 * `x509_hash` and is ignored for DID, whose client_id is `decentralized_identifier:<did>`.
 */
export function resolveRequestSigner(options: ResolveSignerOptions): ResolvedSigner {
  const chosen = options.requested ?? options.fallback ?? { method: 'X509_P256' as const };
  if (chosen.method === 'DID') return { method: 'DID', clientIdPrefix: 'decentralized_identifier', keyType: 'P256' };
  return {
    method: chosen.method,
    clientIdPrefix: chosen.clientIdPrefix ?? 'x509_hash',
    keyType: chosen.method === 'X509_P256' ? 'P256' : 'ED25519',
  };
}
