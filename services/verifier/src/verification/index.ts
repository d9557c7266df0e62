// The verification engine's public surface (README.md): what the response
// endpoints and the trust-anchor routes call.
export {
  verifyPresentation,
  type PresentationFlow,
  type VerifiedPresentation,
  type VerifyPresentationOptions,
  type VerifyPresentationResult,
} from './verify-presentation.js';
export {
  decryptAuthorizationResponse,
  type DecryptAuthorizationResponseOptions,
  type DecryptAuthorizationResponseResult,
  type DecryptedAuthorizationResponse,
} from './decrypt-response.js';
export {
  buildSessionTranscript,
  computeJwkThumbprint,
  encodeTranscriptAsDataItem,
  type BuildSessionTranscriptOptions,
  type SessionTranscriptFlow,
} from './session-transcript.js';
export {
  validateCertificateChain,
  type ValidateCertificateChainOptions,
  type ValidateCertificateChainResult,
} from '../crypto/certificate-chain.js';
export {
  MDOC_ISSUER,
  REQUEST_SIGNER,
  SD_JWT_VC_ISSUER,
  statusListSigner,
  type CertificatePurpose,
} from '../crypto/certificate-purposes.js';
export type {
  CheckStatusOptions,
  CheckStatusResult,
  CredentialStatus,
  StatusListChecker,
} from './check-credential-status.js';
export {
  verifyStatusListToken,
  type StatusListToken,
  type StatusListTokenBytes,
  type VerifyStatusListTokenOptions,
} from './verify-status-list-token.js';
export {
  parseTrustAnchor,
  type ParseTrustAnchorOptions,
  type ParseTrustAnchorResult,
  type TrustAnchorDescription,
} from './parse-trust-anchor.js';
export { resolveDid, type ResolveDidOptions, type ResolveDidResult } from './resolve-did.js';
export {
  certificateFingerprint,
  resolveTrustStore,
  type ResolvedTrustStore,
  type TrustedCertificate,
  type TrustedDid,
  type TrustStore,
  type VerificationCache,
} from './trust-store.js';
export { resolveTrustListTrust, type ResolveTrustListTrustOptions } from './resolve-trust-list-trust.js';
export { readStatusListEntry } from './read-status-list.js';
export { retainedPresentations } from './retained-claims.js';
export type { CredentialSetOutcome } from './evaluate-dcql.js';
export type { VerificationCode } from './check-order.js';
