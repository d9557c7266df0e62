import { Type, type Static } from 'typebox';
import { UuidSchema } from './ecosystem.js';
import { DcApiProtocolSchema, DcApiProtocolsSchema, DcApiRequestSchema } from './dc-api.js';
import { IntentNoticeSchema } from './intent-notice.js';
import {
  OverAskingPathSchema,
  OverAskingPolicySchema,
  PendingCertificateSigningRequestSchema,
} from './relying-party-identity.js';

/**
 * Bodies and records of the verifier's management API (VERIFIER.md). The DCQL
 * query itself is typed loosely here: the service validates it with the `dcql`
 * library and answers 400 INVALID_DCQL with a JSON Pointer per problem.
 */

/** How a verification template's request objects are signed. */
export const SignerOptionSchema = Type.Union([
  Type.Literal('DID'),
  Type.Literal('X509_P256'),
  Type.Literal('X509_ED25519'),
]);
export type SignerOption = Static<typeof SignerOptionSchema>;

/** Display data a wallet shows to the holder; copied into the request object's `client_metadata`. */
export const ClientMetadataSchema = Type.Object(
  {
    client_name: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
    logo_uri: Type.Optional(Type.String({ format: 'uri', maxLength: 2048, pattern: '^(https?:|data:image/)' })),
  },
  { additionalProperties: false },
);
export type ClientMetadata = Static<typeof ClientMetadataSchema>;

/** The organisation's own identifier of a verifier: safe in URLs and query strings. */
export const VerifierIdSchema = Type.String({
  minLength: 1,
  maxLength: 200,
  pattern: '^[A-Za-z0-9][A-Za-z0-9._:~-]*$',
});

/**
 * Settings of a verifier beyond its display data (issue 25). `overAskingPolicy`: what a session
 * or template asking for more than the verifier's registration certificate registered gets —
 * `refuse` (400 OVER_ASKING, the default) or `warn` (created, `overAsking` lists the paths); no
 * effect without a registration certificate. `strictHaip`: sessions must meet HAIP 1.0 —
 * encrypted response modes (`direct_post.jwt`, `dc_api.jwt`) and requests signed with the P-256
 * access certificate under `x509_hash` (400 NOT_HAIP_COMPLIANT otherwise); default false.
 * On PUT an absent setting keeps its current value (unlike `clientMetadata`, which an absent
 * value clears), so a client written before these settings existed cannot undo them.
 */
const VerifierSettingsProperties = {
  overAskingPolicy: Type.Optional(OverAskingPolicySchema),
  strictHaip: Type.Optional(Type.Boolean()),
};

export const CreateVerifierBodySchema = Type.Object(
  { verifierId: VerifierIdSchema, clientMetadata: Type.Optional(ClientMetadataSchema), ...VerifierSettingsProperties },
  { additionalProperties: false },
);
export type CreateVerifierBody = Static<typeof CreateVerifierBodySchema>;

/**
 * PUT replaces `clientMetadata` (absent clears it); `verifierId` cannot change.
 * The API documents describe this body as "Verifier", so clients generated from
 * them send `verifierId` too: accepted when it equals the path's, otherwise 400
 * VERIFIER_ID_IMMUTABLE (a string here, not the id pattern, so any other value
 * gets that code rather than a pattern failure).
 */
export const UpdateVerifierBodySchema = Type.Object(
  {
    verifierId: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
    clientMetadata: Type.Optional(ClientMetadataSchema),
    ...VerifierSettingsProperties,
  },
  { additionalProperties: false },
);
export type UpdateVerifierBody = Static<typeof UpdateVerifierBodySchema>;

/**
 * PATCH changes only the fields it names; an absent field keeps its value, so two people
 * changing different fields do not undo each other. `clientMetadata` is one value: it replaces
 * the display data as a whole (not merged member by member), `null` removes it. At least one
 * field; `verifierId`, when repeated, must equal the path's (400 VERIFIER_ID_IMMUTABLE).
 */
export const PatchVerifierBodySchema = Type.Object(
  {
    verifierId: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
    clientMetadata: Type.Optional(Type.Union([ClientMetadataSchema, Type.Null()])),
    ...VerifierSettingsProperties,
  },
  { additionalProperties: false, minProperties: 1 },
);
export type PatchVerifierBody = Static<typeof PatchVerifierBodySchema>;

export const VerifierSchema = Type.Object({
  id: Type.String({ format: 'uuid' }),
  verifierId: Type.String(),
  clientMetadata: Type.Optional(ClientMetadataSchema),
  overAskingPolicy: OverAskingPolicySchema,
  strictHaip: Type.Boolean(),
  createDateTime: Type.String({ format: 'date-time' }),
  lastChangedDateTime: Type.String({ format: 'date-time' }),
});
export type Verifier = Static<typeof VerifierSchema>;

/** How the request object's `client_id` is derived from an X.509 leaf (OpenID4VP 1.0 §5.9.3). */
export const ClientIdPrefixSchema = Type.Union([Type.Literal('x509_hash'), Type.Literal('x509_san_dns')]);
export type ClientIdPrefix = Static<typeof ClientIdPrefixSchema>;

export const RequestSignerSchema = Type.Object(
  { method: SignerOptionSchema, clientIdPrefix: Type.Optional(ClientIdPrefixSchema) },
  { additionalProperties: false },
);
export type RequestSigner = Static<typeof RequestSignerSchema>;

/** A DCQL query with the spec's `combine` field; validated by the service, not by the schema. */
export const DcqlQueryInputSchema = Type.Object(
  {},
  { additionalProperties: true, description: 'DCQL query plus `combine: "all"`' },
);

export const TemplateJsonSchema = Type.Object(
  { dcql: Type.Object({ query: DcqlQueryInputSchema }, { additionalProperties: false }) },
  { additionalProperties: false },
);

export const VerificationTemplateBodySchema = Type.Object(
  {
    name: Type.String({ minLength: 1, maxLength: 200 }),
    templateJson: TemplateJsonSchema,
    signerOption: SignerOptionSchema,
    clientIdPrefix: Type.Optional(ClientIdPrefixSchema),
    /**
     * The organisation's verifier this template is for: its query is then judged when saved
     * against that verifier's registration certificate (400 OVER_ASKING under `refuse`).
     * Sessions are judged against their own verifier whatever the template names.
     */
    verifierId: Type.Optional(VerifierIdSchema),
  },
  { additionalProperties: false },
);
export type VerificationTemplateBody = Static<typeof VerificationTemplateBodySchema>;

export const VerificationTemplateSchema = Type.Object({
  id: Type.String({ format: 'uuid' }),
  name: Type.String(),
  templateJson: TemplateJsonSchema,
  signerOption: SignerOptionSchema,
  clientIdPrefix: Type.Optional(ClientIdPrefixSchema),
  verifierId: Type.Optional(Type.String()),
  /** Save answers only, under the `warn` policy: what the query asks beyond the named verifier's registration. */
  overAsking: Type.Optional(Type.Array(OverAskingPathSchema)),
  createDateTime: Type.String({ format: 'date-time' }),
  lastChangedDateTime: Type.String({ format: 'date-time' }),
});
export type VerificationTemplate = Static<typeof VerificationTemplateSchema>;

export const ResponseModeSchema = Type.Union([
  Type.Literal('direct_post'),
  Type.Literal('direct_post.jwt'),
  Type.Literal('dc_api'),
  Type.Literal('dc_api.jwt'),
]);
export type ResponseMode = Static<typeof ResponseModeSchema>;

export const SessionStateSchema = Type.Union([
  Type.Literal('RequestCreated'),
  Type.Literal('RequestUriRetrieved'),
  Type.Literal('ResponseVerified'),
  Type.Literal('Error'),
]);
export type SessionState = Static<typeof SessionStateSchema>;

/** An origin such as `https://rp.example` (scheme, host, optional port; no path). */
export const OriginSchema = Type.String({
  minLength: 1,
  maxLength: 2048,
  pattern: '^[A-Za-z][A-Za-z0-9+.-]*://[^/?#]+$',
});

/** A transaction data object (OpenID4VP 1.0 §8.4); sent base64url-encoded. */
export const TransactionDataInputSchema = Type.Object(
  {
    type: Type.String({ minLength: 1, maxLength: 200 }),
    credential_ids: Type.Array(Type.String({ minLength: 1 }), { minItems: 1, maxItems: 50 }),
  },
  { additionalProperties: true },
);

/** Fields both create-session bodies share. */
const SessionOptionsProperties = {
  responseMode: ResponseModeSchema,
  expectedOrigins: Type.Optional(Type.Array(OriginSchema, { minItems: 1, maxItems: 20 })),
  /**
   * Sent as the OAuth `state`: ASCII URL-safe characters only (OpenID4VP 1.0 §5.2). When a
   * credential query does not require holder binding, a redirect-mode `state` must carry at
   * least 128 bits of entropy: then a given value needs at least 22 characters (and must be
   * random and fresh); absent, the service generates one.
   */
  payloadState: Type.Optional(Type.String({ minLength: 1, maxLength: 512, pattern: '^[A-Za-z0-9._~-]+$' })),
  requestSigner: Type.Optional(RequestSignerSchema),
  expiresInSeconds: Type.Optional(Type.Integer({ minimum: 1, maximum: 86400 })),
  /**
   * How long after verification the presentation data (claims) of this session is kept, in
   * seconds. May only shorten the platform's PRESENTATION_DATA_TTL_SECONDS: a longer value
   * has no effect (the shorter of the two applies).
   */
  presentationDataTtlSeconds: Type.Optional(Type.Integer({ minimum: 1, maximum: 31_536_000 })),
  transactionData: Type.Optional(Type.Array(TransactionDataInputSchema, { minItems: 1, maxItems: 20 })),
  redirectUri: Type.Optional(Type.String({ format: 'uri', maxLength: 2048, pattern: '^https?://' })),
  dcApiProtocols: Type.Optional(DcApiProtocolsSchema),
};

export const CreatePresentationBodySchema = Type.Object(
  {
    dcql: DcqlQueryInputSchema,
    ...SessionOptionsProperties,
    /**
     * Verify against this ecosystem's trust list instead of the organisation's
     * and the platform's anchors; the organisation must be the ecosystem's lead
     * or an active member.
     */
    ecosystemId: Type.Optional(UuidSchema),
  },
  { additionalProperties: false },
);
export type CreatePresentationBody = Static<typeof CreatePresentationBodySchema>;

export const CreateIntentPresentationBodySchema = Type.Object(
  { intent: Type.String({ minLength: 1, maxLength: 200 }), ...SessionOptionsProperties },
  { additionalProperties: false },
);
export type CreateIntentPresentationBody = Static<typeof CreateIntentPresentationBodySchema>;

export const SessionErrorSchema = Type.Object({ code: Type.String(), message: Type.String() });

/**
 * What a read of a verified session's presentation data finds now (`verifier-presentation-response`):
 * `full` every verified claim, `retained` only those the query marked `intent_to_retain` (the read
 * grace is over), `purged` none (the data's lifetime is over, or nothing was retained).
 */
export const ClaimsStateSchema = Type.Union([Type.Literal('full'), Type.Literal('retained'), Type.Literal('purged')]);
export type ClaimsState = Static<typeof ClaimsStateSchema>;

/** The lifecycle of a verified session's presentation data; never a claim. */
export const PresentationDataLifecycleSchema = Type.Object({
  claimsState: ClaimsStateSchema,
  /** Every claim goes then: verification + the shorter of the platform's and the session's `presentationDataTtlSeconds`. */
  dataExpiresAt: Type.String({ format: 'date-time' }),
  /** The first read + the read grace: the claims not retained go then. Absent until the data is first read. */
  readExpiresAt: Type.Optional(Type.String({ format: 'date-time' })),
  /**
   * When the purge job removed the last claim value. Absent while claims are stored — also once a deadline
   * has passed but the purge (every PURGE_INTERVAL_SECONDS) has not run yet: reads already answer 410 then.
   */
  claimsPurgedAt: Type.Optional(Type.String({ format: 'date-time' })),
});
export type PresentationDataLifecycle = Static<typeof PresentationDataLifecycleSchema>;

/** A presentation session as `GET verifier-presentation` returns it. */
export const PresentationSessionSchema = Type.Object({
  id: Type.String({ format: 'uuid' }),
  authorizationRequestId: Type.String(),
  authorizationRequestUri: Type.Optional(Type.String()),
  requestUri: Type.Optional(Type.String()),
  responseUri: Type.Optional(Type.String()),
  publicVerifierId: Type.String(),
  clientId: Type.String(),
  nonce: Type.String(),
  payloadState: Type.String(),
  responseMode: ResponseModeSchema,
  expectedOrigins: Type.Optional(Type.Array(Type.String())),
  /**
   * DC API sessions created with `dcApiProtocols`: the protocols offered, in the relying party's order.
   * Absent on a DC API session that named none: it offers `["openid4vp-v1-signed"]`.
   */
  dcApiProtocols: Type.Optional(Type.Array(DcApiProtocolSchema)),
  state: SessionStateSchema,
  error: Type.Optional(SessionErrorSchema),
  /** Under the verifier's `warn` policy: what the query asks beyond its registration certificate (judged at creation). */
  overAsking: Type.Optional(Type.Array(OverAskingPathSchema)),
  createdAt: Type.String({ format: 'date-time' }),
  updatedAt: Type.String({ format: 'date-time' }),
  expiresAt: Type.String({ format: 'date-time' }),
  /** Redirect modes: when the wallet first fetched the request object (`RequestUriRetrieved`). */
  requestRetrievedAt: Type.Optional(Type.String({ format: 'date-time' })),
  /**
   * When the answer that settled the session arrived and was judged (the wallet's, or the browser's
   * through `verify-authorization-response`): the time of `ResponseVerified`, or of `Error` with any
   * code but `SESSION_EXPIRED` (an expired session was not answered: it ended at `expiresAt`).
   */
  answeredAt: Type.Optional(Type.String({ format: 'date-time' })),
  /** `ResponseVerified` sessions: the presentation data's deadlines and what a read finds now. */
  presentationData: Type.Optional(PresentationDataLifecycleSchema),
});
export type PresentationSession = Static<typeof PresentationSessionSchema>;

/**
 * The `data` of a `state` event on `GET verifier-presentation-events` (server-sent
 * events): the session's state when it changed; `error` once in `Error`.
 */
export const SessionStateEventSchema = Type.Object({
  id: Type.String({ format: 'uuid' }),
  state: SessionStateSchema,
  error: Type.Optional(SessionErrorSchema),
  /** As on the session record. */
  overAsking: Type.Optional(Type.Array(OverAskingPathSchema)),
  changedAt: Type.String({ format: 'date-time' }),
});
export type SessionStateEvent = Static<typeof SessionStateEventSchema>;

/** `GET verifier-presentation-events`: the session followed. */
export const SessionEventsQuerySchema = Type.Object({ id: Type.String({ minLength: 1, maxLength: 200 }) });
export type SessionEventsQuery = Static<typeof SessionEventsQuerySchema>;

/**
 * The create-session answer: the record plus what to hand the wallet. DC API
 * sessions: `dcApiRequests`, one entry per offered protocol in order, is exactly
 * the array a page passes as `navigator.credentials.get({ digital: { requests } })`;
 * `dcApiRequest` is its `openid4vp-v1-signed` entry when there is one, else its first.
 */
export const CreatedPresentationSchema = Type.Object({
  ...PresentationSessionSchema.properties,
  dcApiRequest: Type.Optional(DcApiRequestSchema),
  dcApiRequests: Type.Optional(Type.Array(DcApiRequestSchema, { minItems: 1 })),
  notice: Type.Optional(IntentNoticeSchema),
});
export type CreatedPresentation = Static<typeof CreatedPresentationSchema>;

export const SessionListQuerySchema = Type.Object({
  pageNumber: Type.Optional(Type.Integer({ minimum: 1, default: 1 })),
  pageSize: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 10 })),
  id: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
  publicVerifierId: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
  payloadState: Type.Optional(Type.String({ minLength: 1, maxLength: 512 })),
  authorizationRequestUri: Type.Optional(Type.String({ minLength: 1, maxLength: 4096 })),
  authorizationRequestId: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
  nonce: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
  state: Type.Optional(SessionStateSchema),
  /** Sessions created strictly after this instant (RFC 3339 date-time with its offset; `+` URL-encoded). */
  createdAfter: Type.Optional(
    Type.String({
      format: 'date-time',
      description: 'only sessions created strictly after this instant (RFC 3339, e.g. 2026-01-01T10:00:00Z)',
    }),
  ),
  /** Sessions created strictly before this instant; later than `createdAfter` when both are given. */
  createdBefore: Type.Optional(
    Type.String({
      format: 'date-time',
      description: 'only sessions created strictly before this instant (RFC 3339); later than createdAfter',
    }),
  ),
});
export type SessionListQuery = Static<typeof SessionListQuerySchema>;

export const CertificateKeyTypeSchema = Type.Union([Type.Literal('P256'), Type.Literal('ED25519')]);
export type CertificateKeyType = Static<typeof CertificateKeyTypeSchema>;

/**
 * `PUT certificates/{P256|ED25519}`: a chain with its key, or — after `POST …/csr` — the chain
 * alone, whose leaf must certify the pending key (400 CERTIFICATE_KEY_MISMATCH otherwise).
 */
export const ImportCertificateBodySchema = Type.Object(
  {
    certificateChainPem: Type.String({ minLength: 1, maxLength: 65536, description: 'PEM certificates, leaf first' }),
    privateKeyPem: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 16384,
        description: 'PKCS#8 PEM private key of the leaf; absent: the leaf certifies the key of the pending CSR',
      }),
    ),
  },
  { additionalProperties: false },
);
export type ImportCertificateBody = Static<typeof ImportCertificateBodySchema>;

/** The request-signing certificate of an organisation and key type (never the private key). */
export const SigningCertificateSchema = Type.Object({
  keyType: CertificateKeyTypeSchema,
  /** `platform`: a leaf of the platform CA; `imported`: a chain imported with its key; `csr`: a chain for a key made here (`POST …/csr`). */
  source: Type.Union([Type.Literal('platform'), Type.Literal('imported'), Type.Literal('csr')]),
  subject: Type.String(),
  /** The leaf's organizationIdentifier (else serialNumber): the identifier a registration certificate binds to (WRPAC). */
  organizationIdentifier: Type.Optional(Type.String()),
  issuer: Type.String(),
  notBefore: Type.String({ format: 'date-time' }),
  notAfter: Type.String({ format: 'date-time' }),
  sanDnsNames: Type.Array(Type.String()),
  fingerprint: Type.String({ description: 'SHA-256 of the leaf DER, lowercase hex' }),
  x509Hash: Type.String({ description: 'base64url SHA-256 of the leaf DER: the x509_hash client_id value' }),
  certificateChainPem: Type.String({ description: 'the chain sent as x5c, leaf first, without the trust anchor' }),
});
export type SigningCertificate = Static<typeof SigningCertificateSchema>;

/** `GET certificates`: per key type, the signer in force and the certificate signing request waiting for its chain. */
export const SigningCertificatesEntrySchema = Type.Object({
  keyType: CertificateKeyTypeSchema,
  signer: SigningCertificateSchema,
  pendingCsr: Type.Union([PendingCertificateSigningRequestSchema, Type.Null()]),
});
export type SigningCertificatesEntry = Static<typeof SigningCertificatesEntrySchema>;
