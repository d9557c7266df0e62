/**
 * Stable machine codes carried in the `code` field of the platform error body.
 * Clients switch on these; never rename one. Shared codes first (ARCHITECTURE.md),
 * then each service's own (its design file).
 */
export const SharedErrorCode = {
  VALIDATION_FAILED: 'VALIDATION_FAILED',
  UNAUTHORIZED: 'UNAUTHORIZED',
  FORBIDDEN: 'FORBIDDEN',
  NOT_FOUND: 'NOT_FOUND',
  NOT_ACCEPTABLE: 'NOT_ACCEPTABLE',
  CONFLICT: 'CONFLICT',
  BODY_TOO_LARGE: 'BODY_TOO_LARGE',
  UNSUPPORTED_MEDIA_TYPE: 'UNSUPPORTED_MEDIA_TYPE',
  RATE_LIMITED: 'RATE_LIMITED',
  NOT_IMPLEMENTED: 'NOT_IMPLEMENTED',
  DEPENDENCY_UNAVAILABLE: 'DEPENDENCY_UNAVAILABLE',
  INTERNAL: 'INTERNAL',
} as const;

export const StatusListErrorCode = {
  STATUS_LIST_EXISTS: 'STATUS_LIST_EXISTS',
  BITS_MISMATCH: 'BITS_MISMATCH',
  SUBJECT_MISMATCH: 'SUBJECT_MISMATCH',
  STALE_UPDATE: 'STALE_UPDATE',
  INVALID_STATUS_LIST_JWT: 'INVALID_STATUS_LIST_JWT',
  /** A `cwt` that breaks a rule of a Status List Token in CWT form (`details` names each). */
  INVALID_STATUS_LIST_CWT: 'INVALID_STATUS_LIST_CWT',
  /** A PATCH in another form (jwt/cwt) than the one the list was created in. */
  FORMAT_MISMATCH: 'FORMAT_MISMATCH',
  HISTORY_NOT_SUPPORTED: 'HISTORY_NOT_SUPPORTED',
  /** `?time=` names a time no kept version of the list was valid at. */
  NO_STATUS_AT_TIME: 'NO_STATUS_AT_TIME',
} as const;

export const EcosystemErrorCode = {
  ORGANISATION_NOT_FOUND: 'ORGANISATION_NOT_FOUND',
  INVITATION_PENDING: 'INVITATION_PENDING',
  NO_LEAD_INVITATION: 'NO_LEAD_INVITATION',
  ECOSYSTEM_NAME_TAKEN: 'ECOSYSTEM_NAME_TAKEN',
  ALREADY_MEMBER: 'ALREADY_MEMBER',
  INVITATION_NOT_PENDING: 'INVITATION_NOT_PENDING',
  ECOSYSTEM_DISABLED: 'ECOSYSTEM_DISABLED',
  ECOSYSTEM_NOT_FOUND: 'ECOSYSTEM_NOT_FOUND',
  NOT_A_MEMBER: 'NOT_A_MEMBER',
  INTENT_NAME_TAKEN: 'INTENT_NAME_TAKEN',
  INTENT_NOT_FOUND: 'INTENT_NOT_FOUND',
  INTENT_TEMPLATE_EXISTS: 'INTENT_TEMPLATE_EXISTS',
  INTENT_TEMPLATE_NOT_FOUND: 'INTENT_TEMPLATE_NOT_FOUND',
  VERIFICATION_TEMPLATE_NOT_FOUND: 'VERIFICATION_TEMPLATE_NOT_FOUND',
  TEMPLATE_OWNER_NOT_MEMBER: 'TEMPLATE_OWNER_NOT_MEMBER',
  NOTICE_EXISTS: 'NOTICE_EXISTS',
  IN_USE: 'IN_USE',
  /** A trusted entity id that is not in this ecosystem. */
  TRUSTED_ENTITY_NOT_FOUND: 'TRUSTED_ENTITY_NOT_FOUND',
  /** A certificate id that is not a current certificate of this entity. */
  CERTIFICATE_NOT_FOUND: 'CERTIFICATE_NOT_FOUND',
  /** A status change of a withdrawn entity (withdrawal is final). */
  ENTITY_WITHDRAWN: 'ENTITY_WITHDRAWN',
} as const;

export const VerifierErrorCode = {
  VERIFIER_EXISTS: 'VERIFIER_EXISTS',
  VERIFIER_NOT_FOUND: 'VERIFIER_NOT_FOUND',
  VERIFIER_IN_USE: 'VERIFIER_IN_USE',
  VERIFICATION_TEMPLATE_NOT_FOUND: 'VERIFICATION_TEMPLATE_NOT_FOUND',
  TEMPLATE_IN_USE: 'TEMPLATE_IN_USE',
  INVALID_DCQL: 'INVALID_DCQL',
  EXPECTED_ORIGINS_REQUIRED: 'EXPECTED_ORIGINS_REQUIRED',
  EXPECTED_ORIGINS_NOT_ALLOWED: 'EXPECTED_ORIGINS_NOT_ALLOWED',
  PRESENTATION_NOT_VERIFIED: 'PRESENTATION_NOT_VERIFIED',
  /** 410: the session was verified, but its presentation data has been deleted (its lifetime ended). */
  PRESENTATION_DATA_EXPIRED: 'PRESENTATION_DATA_EXPIRED',
  /** A verified session's stored presentation data does not open (altered, moved from another row, or its data key no longer opens): nothing is returned. */
  PRESENTATION_DATA_UNREADABLE: 'PRESENTATION_DATA_UNREADABLE',
  NOT_DC_API_SESSION: 'NOT_DC_API_SESSION',
  SESSION_CLOSED: 'SESSION_CLOSED',
  SESSION_EXPIRED: 'SESSION_EXPIRED',
  ORIGIN_NOT_ALLOWED: 'ORIGIN_NOT_ALLOWED',
  DECRYPTION_FAILED: 'DECRYPTION_FAILED',
  /** `org-iso-mdoc` asked for a query (or a session) an ISO/IEC 18013-7 Annex C DeviceRequest cannot express; `details` names the part. */
  DC_API_PROTOCOL_NOT_SUPPORTED: 'DC_API_PROTOCOL_NOT_SUPPORTED',
  /** `verify-authorization-response` names a `protocol` the session did not offer; the session stays open. */
  DC_API_PROTOCOL_MISMATCH: 'DC_API_PROTOCOL_MISMATCH',
  /** An unencrypted answer to an encrypted-mode session (`dc_api.jwt`); the session stays open. */
  RESPONSE_NOT_ENCRYPTED: 'RESPONSE_NOT_ENCRYPTED',
  /** `responseCode` given to `verifier-presentation-response` is not the one the session's redirect carried. */
  RESPONSE_CODE_MISMATCH: 'RESPONSE_CODE_MISMATCH',
  /** A `PUT verifier/{verifierId}` body naming another `verifierId` than the path. */
  VERIFIER_ID_IMMUTABLE: 'VERIFIER_ID_IMMUTABLE',
  /** An ecosystem-trust session whose credential queries no active issuer of the list may answer. */
  NO_TRUSTED_ISSUER: 'NO_TRUSTED_ISSUER',
  /** The verifier has no webhook (`GET`/`DELETE`/`rotate-secret`/deliveries of `verifier/{verifierId}/webhook`). */
  WEBHOOK_NOT_FOUND: 'WEBHOOK_NOT_FOUND',
  /** No delivery with this id for the verifier's webhook. */
  WEBHOOK_DELIVERY_NOT_FOUND: 'WEBHOOK_DELIVERY_NOT_FOUND',
  /** 400: a chain given without its key whose leaf does not certify the key of the pending CSR (or no CSR is pending). */
  CERTIFICATE_KEY_MISMATCH: 'CERTIFICATE_KEY_MISMATCH',
  /** 400: a registration certificate refused before it is stored; `details` gives the reason first (`UNTRUSTED: …`), then each problem. */
  REGISTRATION_CERTIFICATE_INVALID: 'REGISTRATION_CERTIFICATE_INVALID',
  /** 404: the verifier has no registration certificate. */
  REGISTRATION_CERTIFICATE_NOT_FOUND: 'REGISTRATION_CERTIFICATE_NOT_FOUND',
  /** 400: a template or session asks for a credential type or claim outside the verifier's registered intended uses; one `details` entry per path. */
  OVER_ASKING: 'OVER_ASKING',
  /** 400: a session of a `strictHaip` verifier that HAIP 1.0 does not allow (plain response mode, a signer other than X509_P256 with x509_hash). */
  NOT_HAIP_COMPLIANT: 'NOT_HAIP_COMPLIANT',
} as const;

/** Why a presentation failed verification: the session's `error.code` (VERIFIER.md, Verification). */
export const VerificationErrorCode = {
  INVALID_VP_TOKEN: 'INVALID_VP_TOKEN',
  ISSUER_SIGNATURE_INVALID: 'ISSUER_SIGNATURE_INVALID',
  DISCLOSURE_INVALID: 'DISCLOSURE_INVALID',
  ISSUER_NOT_TRUSTED: 'ISSUER_NOT_TRUSTED',
  /** An SD-JWT VC's `iss` names someone other than the key that signed it (SAN of the x5c leaf, or the DID). */
  ISSUER_MISMATCH: 'ISSUER_MISMATCH',
  /** The credential's `vct`/doctype is not among the `credentialTypes` of the anchor its issuer is trusted through. */
  CREDENTIAL_TYPE_NOT_ALLOWED: 'CREDENTIAL_TYPE_NOT_ALLOWED',
  CREDENTIAL_EXPIRED: 'CREDENTIAL_EXPIRED',
  CREDENTIAL_NOT_YET_VALID: 'CREDENTIAL_NOT_YET_VALID',
  KEY_BINDING_INVALID: 'KEY_BINDING_INVALID',
  NONCE_MISMATCH: 'NONCE_MISMATCH',
  AUDIENCE_MISMATCH: 'AUDIENCE_MISMATCH',
  KEY_BINDING_STALE: 'KEY_BINDING_STALE',
  TRANSACTION_DATA_MISMATCH: 'TRANSACTION_DATA_MISMATCH',
  DEVICE_SIGNATURE_INVALID: 'DEVICE_SIGNATURE_INVALID',
  DCQL_NOT_SATISFIED: 'DCQL_NOT_SATISFIED',
  CREDENTIAL_REVOKED: 'CREDENTIAL_REVOKED',
  CREDENTIAL_SUSPENDED: 'CREDENTIAL_SUSPENDED',
  STATUS_LIST_UNAVAILABLE: 'STATUS_LIST_UNAVAILABLE',
  WALLET_ERROR: 'WALLET_ERROR',
  SESSION_EXPIRED: 'SESSION_EXPIRED',
} as const;

export const ErrorCode = {
  ...SharedErrorCode,
  ...StatusListErrorCode,
  ...EcosystemErrorCode,
  ...VerifierErrorCode,
  ...VerificationErrorCode,
} as const;

export type ErrorCode = (typeof ErrorCode)[keyof typeof ErrorCode];
