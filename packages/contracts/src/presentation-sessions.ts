import { Type, type Static } from 'typebox';
import { DcApiProtocolSchema, DcApiProtocolsSchema, DcApiRequestSchema } from './dc-api.js';
import { UuidSchema } from './ecosystem.js';
import { IntentNoticeSchema } from './intent-notice.js';
import { OverAskingPathSchema } from './relying-party-identity.js';
import { DcqlQueryInputSchema, RequestSignerSchema } from './verification-templates.js';

// Presentation sessions: the create bodies, the session record, its events and the list query (VERIFIER.md).

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
