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
export {
  createStatusListChecker,
  type CheckStatusOptions,
  type CheckStatusResult,
  type CreateStatusListCheckerOptions,
  type StatusListChecker,
} from '../state/status-list-checker.js';
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
} from './trust-store.js';
export { createVerificationCache, type VerificationCache } from '../state/verification-cache.js';
export { readStatusListEntry } from './read-status-list.js';
export { classifyAddress, type AddressClassification } from '../network/classify-address.js';
export { createStatusListFetch, StatusListAddressError } from '../network/create-status-list-fetch.js';
export {
  checkStatusListUrl,
  isInternalHost,
  parseHostList,
  type StatusListNetworkPolicy,
} from '../domain/status-list-network-policy.js';
export type { CredentialSetOutcome } from './evaluate-dcql.js';
export type { CredentialStatus } from './check-credential-status.js';
export type { VerificationCode } from './check-order.js';
