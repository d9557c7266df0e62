// Identifiers of Tessera's trust lists (ETSI TS 119 602 lets a scheme define its own
// URIs; the EU ones name EU schemes, which an ecosystem is not). Each is documented in
// the service README, "The signed trust list"; they are names, not fetched.

const BASE = 'https://tessera.dev/ns/trust-list';

/** LoTEType: a Tessera ecosystem's list of trusted issuers and verifiers. */
export const LOTE_TYPE = `${BASE}/LoTEType/EcosystemTrustList`;

/** The ETSI TS 119 602 JSON binding version this list follows (LoTEVersionIdentifier). */
export const LOTE_VERSION_IDENTIFIER = 1;

/** ServiceTypeIdentifier, by the entity's role. */
export const SERVICE_TYPE = {
  issuer: `${BASE}/SvcType/Issuance`,
  verifier: `${BASE}/SvcType/Verification`,
} as const;

/** ServiceStatus, by the entity's status: `active` is granted. */
export const SERVICE_STATUS = {
  active: `${BASE}/SvcStatus/granted`,
  suspended: `${BASE}/SvcStatus/suspended`,
  withdrawn: `${BASE}/SvcStatus/withdrawn`,
} as const;

/** The ServiceInformationExtensions entry that limits an issuer to credential types (marked critical). */
export const ALLOWED_CREDENTIAL_TYPES_EXTENSION = 'TesseraAllowedCredentialTypes';

/** The media type of the signed list (the issue). */
export const TRUST_LIST_MEDIA_TYPE = 'application/trustlist+jwt';
