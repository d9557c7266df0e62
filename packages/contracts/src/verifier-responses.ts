import { Type, type Static } from 'typebox';
import { OriginSchema, SessionErrorSchema, SessionStateSchema } from './presentation-sessions.js';
import { DcApiProtocolSchema } from './dc-api.js';
import { MAX_PAGE_NUMBER, MAX_PAGE_SIZE } from './envelope.js';

/**
 * Bodies of the verifier's part 2 (VERIFIER.md): trust anchors, verified
 * presentation results and the DC API authorization-response call.
 */

/** `GET trust-anchors`: a page, optionally of one purpose only. */
export const TrustAnchorListQuerySchema = Type.Object({
  pageNumber: Type.Optional(Type.Integer({ minimum: 1, maximum: MAX_PAGE_NUMBER, default: 1 })),
  pageSize: Type.Optional(Type.Integer({ minimum: 1, maximum: MAX_PAGE_SIZE, default: 10 })),
  purpose: Type.Optional(Type.Union([Type.Literal('issuer'), Type.Literal('registrar')])),
});
export type TrustAnchorListQuery = Static<typeof TrustAnchorListQuerySchema>;

/** Codes of the trust-anchor routes (the other verifier codes are in error-codes.ts). */
export const TrustAnchorErrorCode = {
  /** The organisation already has an anchor with this fingerprint. */
  TRUST_ANCHOR_EXISTS: 'TRUST_ANCHOR_EXISTS',
} as const;

const LabelSchema = Type.String({ minLength: 1, maxLength: 200 });

/**
 * The credential types chains under an anchor may issue: SD-JWT VC `vct`
 * values and mdoc doctypes, compared exactly. Absent means any type.
 */
export const CredentialTypesSchema = Type.Array(Type.String({ minLength: 1, maxLength: 500 }), {
  minItems: 1,
  maxItems: 100,
  description: 'vct values and mdoc doctypes that credentials trusted through this anchor may have; absent = any',
});

/**
 * What an anchor is trusted for: `issuer` (credentials and their status lists; the default) or
 * `registrar` (registration certificates of relying parties, ETSI TS 119 475; a CA certificate
 * only, without `credentialTypes`). An anchor of one purpose is never used for the other.
 */
export const TrustAnchorPurposeSchema = Type.Union([Type.Literal('issuer'), Type.Literal('registrar')]);
export type TrustAnchorPurpose = Static<typeof TrustAnchorPurposeSchema>;

/** `{ certificatePem, label?, credentialTypes?, purpose? }` (a CA certificate) or `{ did, label?, credentialTypes? }` (`did:jwk` / `did:key`). */
export const CreateTrustAnchorBodySchema = Type.Union([
  Type.Object(
    {
      certificatePem: Type.String({ minLength: 1, maxLength: 65536 }),
      label: Type.Optional(LabelSchema),
      credentialTypes: Type.Optional(CredentialTypesSchema),
      purpose: Type.Optional(TrustAnchorPurposeSchema),
    },
    { additionalProperties: false },
  ),
  Type.Object(
    {
      did: Type.String({ minLength: 8, maxLength: 8192, pattern: '^did:(jwk|key):' }),
      label: Type.Optional(LabelSchema),
      credentialTypes: Type.Optional(CredentialTypesSchema),
    },
    { additionalProperties: false },
  ),
]);
export type CreateTrustAnchorBody = Static<typeof CreateTrustAnchorBodySchema>;

export const TrustAnchorKindSchema = Type.Union([Type.Literal('certificate'), Type.Literal('did')]);

export const TrustAnchorSchema = Type.Object({
  id: Type.String({ format: 'uuid' }),
  label: Type.Union([Type.String(), Type.Null()]),
  kind: TrustAnchorKindSchema,
  /** `registrar` for a registrar anchor; absent for an issuer anchor (the default purpose). */
  purpose: Type.Optional(TrustAnchorPurposeSchema),
  subject: Type.String({ description: 'certificate subject DN, or the DID' }),
  notAfter: Type.Optional(Type.String({ format: 'date-time' })),
  fingerprint: Type.String({ description: 'SHA-256 of the DER, or of the DID string, lowercase hex' }),
  credentialTypes: Type.Optional(
    Type.Array(Type.String(), { description: 'the credential types this anchor is limited to; absent = any' }),
  ),
  createdAt: Type.String({ format: 'date-time' }),
});
export type TrustAnchor = Static<typeof TrustAnchorSchema>;

/**
 * A claim's path in DCQL's claims-path form: object keys as strings, array
 * positions as integers (`["address", "postal_code"]`; mdoc `[namespace, element]`).
 */
export const ClaimPathSchema = Type.Array(Type.Union([Type.String(), Type.Integer({ minimum: 0 })]));
export type ClaimPath = Static<typeof ClaimPathSchema>;

/**
 * How a credential's status was checked (draft-ietf-oauth-status-list): entry `idx` of
 * the Status List Token at `uri` read VALID, and `format` names the form of the token
 * that was verified — `jwt` (`application/statuslist+jwt`) or `cwt`
 * (`application/statuslist+cwt`, a COSE_Sign1). `format` is absent on results verified
 * before the verifier checked both forms (all JWT).
 */
export const CredentialStatusSchema = Type.Object({
  uri: Type.String({ description: 'status_list.uri of the credential: the Status List Token fetched' }),
  idx: Type.Integer({ minimum: 0, description: 'status_list.idx of the credential' }),
  status: Type.Literal('VALID'),
  format: Type.Optional(
    Type.Union([Type.Literal('jwt'), Type.Literal('cwt')], {
      description: 'the form of the Status List Token checked: jwt (statuslist+jwt) or cwt (statuslist+cwt)',
    }),
  ),
});
export type CredentialStatus = Static<typeof CredentialStatusSchema>;

/** One verified presentation (VERIFIER.md, `verifier-presentation-response`). */
export const VerifiedPresentationSchema = Type.Object({
  credentialQueryId: Type.String(),
  format: Type.Union([Type.Literal('dc+sd-jwt'), Type.Literal('mso_mdoc')]),
  vct: Type.Optional(Type.String()),
  doctype: Type.Optional(Type.String()),
  issuer: Type.String(),
  claims: Type.Record(Type.String(), Type.Unknown()),
  holderBinding: Type.Boolean(),
  validFrom: Type.Optional(Type.String()),
  validUntil: Type.Optional(Type.String()),
  /** Present when the credential names a status list (its entry was VALID, or the presentation would have failed). */
  status: Type.Optional(CredentialStatusSchema),
  /**
   * Claims the wallet disclosed beyond what the query asked for: not returned
   * (their values are dropped before anything is stored), only their paths.
   * Absent on results verified before data minimisation.
   */
  droppedClaims: Type.Optional(Type.Array(ClaimPathSchema)),
  /** Verified against an ecosystem's trust list: the entity whose certificate the issuer's chain led to, and the list's sequence then. */
  trustedEntityId: Type.Optional(Type.String()),
  trustedEntityName: Type.Optional(Type.String()),
  trustListSequence: Type.Optional(Type.Integer({ minimum: 0 })),
});
export type VerifiedPresentation = Static<typeof VerifiedPresentationSchema>;

export const SatisfiedCredentialSetSchema = Type.Object({
  options: Type.Array(Type.Array(Type.String())),
  required: Type.Boolean(),
  satisfiedOption: Type.Optional(Type.Integer({ minimum: 0 })),
});
export type SatisfiedCredentialSet = Static<typeof SatisfiedCredentialSetSchema>;

/** `GET verifier-presentation-response`: what was verified. */
export const PresentationResponseSchema = Type.Object({
  id: Type.String({ format: 'uuid' }),
  state: Type.Literal('ResponseVerified'),
  verifiedAt: Type.String({ format: 'date-time' }),
  presentations: Type.Array(VerifiedPresentationSchema),
  credentialSets: Type.Optional(Type.Array(SatisfiedCredentialSetSchema)),
});
export type PresentationResponse = Static<typeof PresentationResponseSchema>;

/**
 * `responseCode`: the `response_code` the wallet's redirect carried to the relying
 * party (same-device flows, OpenID4VP 1.0 §8.2 and "Session Fixation"). Optional;
 * when given it must be the session's, else 403 RESPONSE_CODE_MISMATCH.
 */
export const PresentationResponseQuerySchema = Type.Object({
  verificationPresentationId: Type.String({ minLength: 1, maxLength: 200 }),
  responseCode: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
});

/** `POST verify-authorization-response` (DC API flow); `authorizationResponse` is forwarded unmodified. */
export const VerifyAuthorizationResponseBodySchema = Type.Object(
  {
    verificationSessionId: Type.String({ minLength: 1, maxLength: 200 }),
    authorizationResponse: Type.Object({}, { additionalProperties: true }),
    origin: OriginSchema,
    /**
     * What the browser's `DigitalCredential.protocol` said: which of the session's
     * offered requests the wallet answered (default: the session's first).
     */
    protocol: Type.Optional(DcApiProtocolSchema),
  },
  { additionalProperties: false },
);
export type VerifyAuthorizationResponseBody = Static<typeof VerifyAuthorizationResponseBodySchema>;

/** Its answer: the session's state, and the presentation-response fields when verified. */
export const AuthorizationResponseOutcomeSchema = Type.Object({
  id: Type.String({ format: 'uuid' }),
  state: SessionStateSchema,
  error: Type.Optional(SessionErrorSchema),
  verifiedAt: Type.Optional(Type.String({ format: 'date-time' })),
  presentations: Type.Optional(Type.Array(VerifiedPresentationSchema)),
  credentialSets: Type.Optional(Type.Array(SatisfiedCredentialSetSchema)),
});
export type AuthorizationResponseOutcome = Static<typeof AuthorizationResponseOutcomeSchema>;

/**
 * `GET verifier-presentation-reads`: one read of a session's presentation data —
 * who (the access token's subject), when, through which route. Never a claim value.
 */
export const PresentationReadSchema = Type.Object({
  sessionId: Type.String({ format: 'uuid' }),
  subject: Type.String(),
  route: Type.Union([Type.Literal('verifier-presentation-response'), Type.Literal('verify-authorization-response')]),
  readAt: Type.String({ format: 'date-time' }),
});
export type PresentationRead = Static<typeof PresentationReadSchema>;

/** `id`: the session whose reads are listed; `pageNumber`/`pageSize` as every page. */
export const PresentationReadsQuerySchema = Type.Object({
  id: Type.String({ minLength: 1, maxLength: 200 }),
  pageNumber: Type.Optional(Type.Integer({ minimum: 1, maximum: MAX_PAGE_NUMBER, default: 1 })),
  pageSize: Type.Optional(Type.Integer({ minimum: 1, maximum: MAX_PAGE_SIZE, default: 10 })),
});
