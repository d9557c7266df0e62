import { sql } from 'drizzle-orm';
import { rateLimitWindowsTable } from '@tessera/service-kit';
import {
  bigint,
  bigserial,
  boolean,
  index,
  integer,
  jsonb,
  pgSchema,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';

/** The service's own Postgres schema: it can share a database with the other services. */
export const verifierSchema = pgSchema('verifier');

const timestamps = {
  createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  updatedAt: timestamp('updated_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
};

/** A verifier of an organisation; `verifier_id` is the organisation's own identifier. */
export const verifiers = verifierSchema.table(
  'verifiers',
  {
    id: uuid('id').primaryKey(),
    orgId: text('org_id').notNull(),
    verifierId: text('verifier_id').notNull(),
    clientMetadata: jsonb('client_metadata').$type<Record<string, unknown>>(),
    /** `refuse` (400 OVER_ASKING) or `warn`: sessions and templates asking beyond the registration certificate. */
    overAskingPolicy: text('over_asking_policy').notNull().default('refuse'),
    /** Sessions must meet HAIP 1.0 (encrypted modes, X509_P256 with x509_hash). */
    strictHaip: boolean('strict_haip').notNull().default(false),
    ...timestamps,
  },
  (t) => [
    uniqueIndex('verifiers_org_verifier_id_key').on(t.orgId, t.verifierId),
    index('verifiers_org_created_idx').on(t.orgId, t.createdAt.desc()),
  ],
);

/** A verification template: a DCQL query (with `combine`, as saved) and a signer option. */
export const verificationTemplates = verifierSchema.table(
  'verification_templates',
  {
    id: uuid('id').primaryKey(),
    orgId: text('org_id').notNull(),
    name: text('name').notNull(),
    templateJson: jsonb('template_json').$type<{ dcql: { query: Record<string, unknown> } }>().notNull(),
    signerOption: text('signer_option').notNull(),
    clientIdPrefix: text('client_id_prefix'),
    /** The verifier the template is judged against when saved (over-asking); null when it names none or that verifier was deleted. */
    verifierRef: uuid('verifier_ref').references(() => verifiers.id, { onDelete: 'set null' }),
    ...timestamps,
  },
  (t) => [index('templates_org_created_idx').on(t.orgId, t.createdAt.desc())],
);

/**
 * One request-signing key per organisation and key type (`P256`, `ED25519`).
 * `encrypted_private_key` is the private JWK sealed with KEY_ENCRYPTION_KEY;
 * `certificate_chain` is the x5c chain (base64 DER, leaf first, no trust anchor).
 */
export const signingKeys = verifierSchema.table(
  'signing_keys',
  {
    orgId: text('org_id').notNull(),
    keyType: text('key_type').notNull(),
    publicJwk: jsonb('public_jwk').$type<Record<string, unknown>>().notNull(),
    encryptedPrivateKey: text('encrypted_private_key').notNull(),
    certificateChain: jsonb('certificate_chain').$type<string[]>(),
    /** `platform` (a leaf of the platform CA), `imported` (chain and key imported), `csr` (a chain for a key made here). */
    source: text('source').notNull(),
    ...timestamps,
  },
  (t) => [primaryKey({ columns: [t.orgId, t.keyType] })],
);

/**
 * A key made for a certificate signing request (`POST certificates/{keyType}/csr`), waiting for
 * the CA's chain: at most one per organisation and key type (a new request replaces it). The
 * private JWK is sealed with KEY_ENCRYPTION_KEY, AAD `pending-signing-key:<org>:<keyType>:<keyId>`
 * (crypto/sealing-contexts.ts); when the chain arrives the key is re-sealed as the signing key
 * and this row deleted, in one transaction.
 */
export const pendingSigningKeys = verifierSchema.table(
  'pending_signing_keys',
  {
    keyId: uuid('key_id').primaryKey(),
    orgId: text('org_id').notNull(),
    keyType: text('key_type').notNull(),
    publicJwk: jsonb('public_jwk').$type<Record<string, unknown>>().notNull(),
    encryptedPrivateKey: text('encrypted_private_key').notNull(),
    /** The subject and SANs asked for: `{ subject, sanDns?, sanUri? }`. */
    request: jsonb('request').$type<Record<string, unknown>>().notNull(),
    csrPem: text('csr_pem').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull(),
  },
  (t) => [uniqueIndex('pending_signing_keys_org_key_type_key').on(t.orgId, t.keyType)],
);

/**
 * A verifier's registration certificate (WRPRC, ETSI TS 119 475), checked before it was stored:
 * the JWT as uploaded (sent as `verifier_info`) and what it registered (`summary`: form,
 * registrar, relying party, intermediary, intended uses). Dropped with the verifier.
 */
export const registrationCertificates = verifierSchema.table(
  'registration_certificates',
  {
    verifierRef: uuid('verifier_ref')
      .primaryKey()
      .references(() => verifiers.id, { onDelete: 'cascade' }),
    orgId: text('org_id').notNull(),
    jwt: text('jwt').notNull(),
    summary: jsonb('summary').$type<Record<string, unknown>>().notNull(),
    /** The identifier it is bound to (the access certificate's organizationIdentifier at upload). */
    relyingPartyIdentifier: text('relying_party_identifier').notNull(),
    notBefore: timestamp('not_before', { withTimezone: true, mode: 'date' }).notNull(),
    notAfter: timestamp('not_after', { withTimezone: true, mode: 'date' }).notNull(),
    /** When the day-ahead expiry warning was logged (once per certificate; a new upload clears it). */
    expiryWarnedAt: timestamp('expiry_warned_at', { withTimezone: true, mode: 'date' }),
    ...timestamps,
  },
  // The expiry job: certificates by their end.
  (t) => [index('registration_certificates_not_after_idx').on(t.notAfter)],
);

/** Platform-wide values written once at first start: the key-check value and the generated CA. */
export const platformSettings = verifierSchema.table('platform_settings', {
  name: text('name').primaryKey(),
  value: jsonb('value').$type<Record<string, string>>().notNull(),
  createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
});

/**
 * A presentation session. Everything part 2 needs to verify the wallet's answer
 * is here: nonce, client_id, response mode, expected origins, the DCQL query and
 * transaction data exactly as sent, state, and the ephemeral decryption key
 * (sealed with KEY_ENCRYPTION_KEY) for encrypted response modes.
 */
export const presentationSessions = verifierSchema.table(
  'presentation_sessions',
  {
    id: uuid('id').primaryKey(),
    orgId: text('org_id').notNull(),
    verifierRef: uuid('verifier_ref').notNull(),
    publicVerifierId: text('public_verifier_id').notNull(),
    templateId: uuid('template_id'),
    intentId: text('intent_id'),
    ecosystemId: text('ecosystem_id'),
    /**
     * Set when the session is verified against an ecosystem's trust list only
     * (an intent under the `ecosystem` trust policy, or a direct session naming
     * the ecosystem); null: the organisation's anchors and the platform bundle.
     */
    trustEcosystemId: text('trust_ecosystem_id'),
    authorizationRequestId: text('authorization_request_id').notNull(),
    authorizationRequestUri: text('authorization_request_uri'),
    requestUri: text('request_uri'),
    responseUri: text('response_uri'),
    clientId: text('client_id').notNull(),
    signerMethod: text('signer_method').notNull(),
    clientIdPrefix: text('client_id_prefix').notNull(),
    /** X.509 signers: the x5c chain the request is signed with, fixed at creation so `client_id` stays stable. */
    signingChain: jsonb('signing_chain').$type<string[]>(),
    /** Redirect sessions: the request object signed once at creation, served to every plain fetch (a `wallet_nonce` gets a fresh one). */
    requestObject: text('request_object'),
    nonce: text('nonce').notNull(),
    payloadState: text('payload_state').notNull(),
    responseMode: text('response_mode').notNull(),
    expectedOrigins: jsonb('expected_origins').$type<string[]>(),
    dcqlQuery: jsonb('dcql_query').$type<Record<string, unknown>>().notNull(),
    transactionData: jsonb('transaction_data').$type<string[]>(),
    redirectUri: text('redirect_uri'),
    clientMetadata: jsonb('client_metadata').$type<Record<string, unknown>>().notNull(),
    encryptionPublicJwk: jsonb('encryption_public_jwk').$type<Record<string, unknown>>(),
    encryptedEncryptionKey: text('encrypted_encryption_key'),
    /**
     * DC API sessions: the request protocols offered, in the relying party's order
     * (domain/dc-api-protocols.ts); null on redirect sessions and on DC API sessions
     * created before protocols could be chosen, which offered `openid4vp-v1-signed` alone.
     */
    dcApiProtocols: jsonb('dc_api_protocols').$type<string[]>(),
    /** `openid4vp-v1-multisigned`: the full client ids of the request's signers (a KB-JWT `aud` may name one). */
    dcApiSignerClientIds: jsonb('dc_api_signer_client_ids').$type<string[]>(),
    /**
     * `org-iso-mdoc`: the base64url EncryptionInfo exactly as sent (its string enters the
     * Annex C SessionTranscript) and its HPKE recipient private JWK, sealed with
     * KEY_ENCRYPTION_KEY (AAD `annex-c-session-key:<id>`, crypto/sealing-contexts.ts);
     * the key is set to null by the statements that settle or expire the session.
     */
    annexCEncryptionInfo: text('annex_c_encryption_info'),
    encryptedAnnexCKey: text('encrypted_annex_c_key'),
    state: text('state').notNull(),
    errorCode: text('error_code'),
    /**
     * What `error_code` is about (issue 28, item 3): the credential query id of the session's
     * query, or the wallet's registered OAuth error code. The message shown is made from the
     * code and this (`domain/session-errors.ts`); never free text.
     */
    errorSubject: text('error_subject'),
    /**
     * The message as this version writes it (the code's fixed sentence): kept for a rollback
     * to the previous release, which reads it; this version reads `error_code` and `error_subject`.
     */
    errorMessage: text('error_message'),
    requestRetrievedAt: timestamp('request_retrieved_at', { withTimezone: true, mode: 'date' }),
    /**
     * Per-session limits (SESSION_REQUEST_FETCH_LIMIT, SESSION_RESPONSE_LIMIT): the
     * requests counted in the window that started at `limit_window_started_at`. Bumped
     * by the statement that reads the session on the public endpoints, so all replicas
     * share one count; never part of the session's state (`updated_at` is not touched).
     */
    requestFetchCount: integer('request_fetch_count').notNull().default(0),
    responseCount: integer('response_count').notNull().default(0),
    limitWindowStartedAt: timestamp('limit_window_started_at', { withTimezone: true, mode: 'date' }),
    /** SHA-256 (base64url) of the `response_code` handed out with the redirect after a verified answer; never the code itself. */
    responseCodeHash: text('response_code_hash'),
    /** The body's `presentationDataTtlSeconds`: applied at verification when shorter than PRESENTATION_DATA_TTL_SECONDS. */
    presentationDataTtlSeconds: integer('presentation_data_ttl_seconds'),
    /**
     * What was judged at creation (issue 25): the `verifier_info` sent (the registration certificate
     * and the credential queries it covers; null without one), and under the `warn` policy the
     * over-asking paths. A re-signed request object (wallet_nonce) sends exactly this.
     */
    verifierInfo: jsonb('verifier_info').$type<Array<Record<string, unknown>>>(),
    overAsking: jsonb('over_asking').$type<Array<Record<string, unknown>>>(),
    expiresAt: timestamp('expires_at', { withTimezone: true, mode: 'date' }).notNull(),
    ...timestamps,
  },
  (t) => [
    uniqueIndex('sessions_authorization_request_id_key').on(t.authorizationRequestId),
    // Pages of an organisation's sessions, newest first, read backwards in index order.
    index('sessions_org_created_id_idx').on(t.orgId, t.createdAt, t.id),
    // Expiry on read touches only open sessions past their end.
    index('sessions_open_org_expires_idx')
      .on(t.orgId, t.expiresAt)
      .where(sql`state in ('RequestCreated', 'RequestUriRetrieved')`),
    // Expiry by the session lifetimes job (use-cases/expire-due-sessions.ts): open sessions past their end, across organisations, oldest first.
    index('sessions_open_expires_idx')
      .on(t.expiresAt)
      .where(sql`state in ('RequestCreated', 'RequestUriRetrieved')`),
    index('sessions_open_verifier_idx')
      .on(t.verifierRef)
      .where(sql`state in ('RequestCreated', 'RequestUriRetrieved')`),
    index('sessions_open_template_idx')
      .on(t.templateId)
      .where(sql`state in ('RequestCreated', 'RequestUriRetrieved')`),
    // At start, the ecosystems whose lists open sessions will be verified against.
    index('sessions_open_trust_ecosystem_idx')
      .on(t.trustEcosystemId)
      .where(sql`trust_ecosystem_id is not null and state in ('RequestCreated', 'RequestUriRetrieved')`),
    // The purge job (use-cases/purge-personal-data.ts): sessions past SESSION_RETENTION_DAYS, oldest first.
    index('sessions_created_idx').on(t.createdAt),
    // The start-time walk over sealed values (db/sealed-kinds.ts), in id order: only sessions still holding a key.
    index('sessions_sealed_encryption_key_idx')
      .on(t.id)
      .where(sql`encrypted_encryption_key is not null`),
    index('sessions_sealed_annex_c_key_idx')
      .on(t.id)
      .where(sql`encrypted_annex_c_key is not null`),
  ],
);

/**
 * What a verified session proved (VERIFIER.md, `verifier-presentation-response`),
 * written in the transaction that moves the session to `ResponseVerified`. Kept
 * out of `presentation_sessions` so session lists stay small.
 */
export const presentationResults = verifierSchema.table(
  'presentation_results',
  {
    sessionId: uuid('session_id')
      .primaryKey()
      .references(() => presentationSessions.id, { onDelete: 'cascade' }),
    orgId: text('org_id').notNull(),
    verifiedAt: timestamp('verified_at', { withTimezone: true, mode: 'date' }).notNull(),
    /**
     * Plain JSON: rows written before presentation data was sealed only (null on
     * every row written since). Read as they are (README, Personal data); nulled by the purge.
     */
    presentations: jsonb('presentations').$type<Array<Record<string, unknown>>>(),
    credentialSets: jsonb('credential_sets').$type<Array<Record<string, unknown>>>(),
    /**
     * The presentations (claims) and credential sets as JSON, sealed with the
     * organisation's data key (`data_keys`), AAD `presentation-data:<org>:<session>:<column>`
     * (crypto/sealing-contexts.ts). `sealed_credential_sets` is null when there are none.
     * Nulled by the purge (db/personal-data-purge.ts).
     */
    sealedPresentations: text('sealed_presentations'),
    sealedCredentialSets: text('sealed_credential_sets'),
    /**
     * The presentations with only the claims whose query claim said `intent_to_retain: true`,
     * sealed like the columns above (its own column name in the AAD); null when none did.
     * What is answered once the read grace is over, until `data_expires_at`.
     */
    sealedRetainedPresentations: text('sealed_retained_presentations'),
    /**
     * What was verified, never what it said: per presentation its query id, format,
     * vct/doctype, issuer, holder binding and trust decision (domain/presentation-data.ts,
     * `summarisePresentations`) — no claim, no status. Plain: it survives the purge.
     * Null on results sealed before lifetimes existed (a summary of those needs the data key).
     */
    presentationSummary: jsonb('presentation_summary').$type<Array<Record<string, unknown>>>(),
    /** `full` → `retained` (read grace over, some claims retained) → `purged` (no claim values left). */
    claimsState: text('claims_state').notNull().default('full'),
    /** verified_at + the shorter of PRESENTATION_DATA_TTL_SECONDS and the session's `presentationDataTtlSeconds`: every claim goes then. */
    dataExpiresAt: timestamp('data_expires_at', { withTimezone: true, mode: 'date' }).notNull(),
    /** First successful read + PRESENTATION_READ_GRACE_SECONDS: the claims not retained go then. Null until read. */
    readExpiresAt: timestamp('read_expires_at', { withTimezone: true, mode: 'date' }),
    /** When the purge job removed the last claim value (`claims_state` became `purged`); null before, and on rows purged before this column existed. */
    claimsPurgedAt: timestamp('claims_purged_at', { withTimezone: true, mode: 'date' }),
  },
  (t) => [
    // The purge job: results whose data lifetime ended, and read results whose grace ended; purged rows leave both indexes.
    index('presentation_results_data_expires_idx')
      .on(t.dataExpiresAt)
      .where(sql`claims_state <> 'purged'`),
    index('presentation_results_read_expires_idx')
      .on(t.readExpiresAt)
      .where(sql`claims_state = 'full' and read_expires_at is not null`),
  ],
);

/**
 * An organisation's data key: 32 random bytes sealing its presentation data
 * (AES-256-GCM), created on first use and stored wrapped by KEY_ENCRYPTION_KEY
 * (AAD `data-key:<org>`). Re-wrapped at start after a KEY_ENCRYPTION_KEY rotation.
 */
export const dataKeys = verifierSchema.table('data_keys', {
  orgId: text('org_id').primaryKey(),
  wrappedKey: text('wrapped_key').notNull(),
  createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  updatedAt: timestamp('updated_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
});

/**
 * Who read a session's presentation data (issue 15, item 4): one row per
 * successful read — `verifier-presentation-response`, or the DC API answer of
 * `verify-authorization-response` — written with the read. It holds who (the
 * access token's `sub`), when and through which route, never a claim value; it
 * lives as long as the session record (deleted with it).
 */
export const presentationReads = verifierSchema.table(
  'presentation_reads',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    sessionId: uuid('session_id')
      .notNull()
      .references(() => presentationSessions.id, { onDelete: 'cascade' }),
    orgId: text('org_id').notNull(),
    subject: text('subject').notNull(),
    route: text('route').notNull(),
    readAt: timestamp('read_at', { withTimezone: true, mode: 'date' }).notNull(),
  },
  (t) => [index('presentation_reads_org_session_read_idx').on(t.orgId, t.sessionId, t.readAt.desc(), t.id.desc())],
);

/**
 * An organisation's issuer trust anchor: a CA certificate (PEM) or a DID.
 * `fingerprint` (SHA-256 of the DER, or of the DID) is unique per organisation.
 */
export const trustAnchors = verifierSchema.table(
  'trust_anchors',
  {
    id: uuid('id').primaryKey(),
    orgId: text('org_id').notNull(),
    kind: text('kind').notNull(),
    label: text('label'),
    subject: text('subject').notNull(),
    notAfter: timestamp('not_after', { withTimezone: true, mode: 'date' }),
    fingerprint: text('fingerprint').notNull(),
    certificatePem: text('certificate_pem'),
    did: text('did'),
    /** `vct` values and mdoc doctypes chains under this anchor may issue; null = any type. */
    credentialTypes: text('credential_types').array(),
    /** `issuer` (credentials, status lists) or `registrar` (registration certificates): never used for the other. */
    purpose: text('purpose').notNull().default('issuer'),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  (t) => [
    // One purpose per certificate in an organisation (and the index the previous release's insert names).
    uniqueIndex('trust_anchors_org_fingerprint_key').on(t.orgId, t.fingerprint),
    index('trust_anchors_org_created_idx').on(t.orgId, t.createdAt.desc()),
  ],
);

/**
 * A verifier's webhook (at most one per verifier; dropped with the verifier).
 * `encrypted_secret` is the Standard Webhooks secret (`whsec_…`) sealed with
 * KEY_ENCRYPTION_KEY, bound to the webhook's id (crypto/sealing-contexts.ts).
 */
export const webhooks = verifierSchema.table(
  'webhooks',
  {
    id: uuid('id').primaryKey(),
    orgId: text('org_id').notNull(),
    verifierRef: uuid('verifier_ref')
      .notNull()
      .references(() => verifiers.id, { onDelete: 'cascade' }),
    url: text('url').notNull(),
    events: text('events').array().notNull(),
    encryptedSecret: text('encrypted_secret').notNull(),
    ...timestamps,
  },
  (t) => [uniqueIndex('webhooks_verifier_key').on(t.verifierRef)],
);

/**
 * The webhook outbox: one row per event to deliver, inserted by the statement
 * that ends the session (db/webhook-outbox.ts), so an event exists exactly when
 * the state change committed. The row is the delivery's whole state: a replica
 * claims a due row (FOR UPDATE SKIP LOCKED) for `locked_until`, sends, and
 * writes the outcome; nothing is kept in memory between attempts.
 */
export const webhookDeliveries = verifierSchema.table(
  'webhook_deliveries',
  {
    /** The event id: `webhook-id` and the body's `id`, the same on every attempt. */
    id: uuid('id').primaryKey(),
    webhookId: uuid('webhook_id')
      .notNull()
      .references(() => webhooks.id, { onDelete: 'cascade' }),
    orgId: text('org_id').notNull(),
    sessionId: uuid('session_id').notNull(),
    publicVerifierId: text('public_verifier_id').notNull(),
    eventType: text('event_type').notNull(),
    sessionState: text('session_state').notNull(),
    occurredAt: timestamp('occurred_at', { withTimezone: true, mode: 'date' }).notNull(),
    /** `pending` until an attempt gets a 2xx (`delivered`) or the retry period ends (`failed`). */
    status: text('status').notNull(),
    /** Due time of the next attempt (pending deliveries). */
    nextAttemptAt: timestamp('next_attempt_at', { withTimezone: true, mode: 'date' }).notNull(),
    /** A claim: no other replica takes the row before this time; null when not claimed. */
    lockedUntil: timestamp('locked_until', { withTimezone: true, mode: 'date' }),
    /** Which claim holds the row: the outcome is written only by the claim that still holds it. */
    claimToken: uuid('claim_token'),
    /** Start of the retry period (creation, or the last redelivery) and the failed attempts since. */
    retryFrom: timestamp('retry_from', { withTimezone: true, mode: 'date' }).notNull(),
    retryCount: integer('retry_count').notNull().default(0),
    deliveredAt: timestamp('delivered_at', { withTimezone: true, mode: 'date' }),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull(),
  },
  (t) => [
    // The workers' poll: pending rows by due time.
    index('webhook_deliveries_due_idx')
      .on(t.nextAttemptAt)
      .where(sql`status = 'pending'`),
    // The deliveries page, newest first.
    index('webhook_deliveries_webhook_created_idx').on(t.webhookId, t.createdAt, t.id),
  ],
);

/** Every POST of a delivery, as it went. */
export const webhookDeliveryAttempts = verifierSchema.table(
  'webhook_delivery_attempts',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    deliveryId: uuid('delivery_id')
      .notNull()
      .references(() => webhookDeliveries.id, { onDelete: 'cascade' }),
    attemptedAt: timestamp('attempted_at', { withTimezone: true, mode: 'date' }).notNull(),
    durationMs: integer('duration_ms').notNull(),
    statusCode: integer('status_code'),
    error: text('error'),
    succeeded: boolean('succeeded').notNull(),
  },
  (t) => [index('webhook_delivery_attempts_delivery_idx').on(t.deliveryId, t.id)],
);

export type VerifierRow = typeof verifiers.$inferSelect;
export type WebhookRow = typeof webhooks.$inferSelect;
export type WebhookDeliveryRow = typeof webhookDeliveries.$inferSelect;
export type WebhookDeliveryAttemptRow = typeof webhookDeliveryAttempts.$inferSelect;
export type TemplateRow = typeof verificationTemplates.$inferSelect;
export type SigningKeyRow = typeof signingKeys.$inferSelect;
export type PendingSigningKeyRow = typeof pendingSigningKeys.$inferSelect;
export type RegistrationCertificateRow = typeof registrationCertificates.$inferSelect;
/**
 * Number of sessions per organisation, kept in the transaction that creates each
 * session and in the statement that deletes sessions past retention (the purge job),
 * so unfiltered session pages need no count(*).
 */
export const sessionCounts = verifierSchema.table('session_counts', {
  orgId: text('org_id').primaryKey(),
  total: bigint('total', { mode: 'number' }).notNull(),
});

/**
 * Per-address rate-limit counts every replica shares (the kit's `SharedRateLimitCounts` and
 * `postgresRateLimitWindows`): one aligned window per key, to which each replica adds what
 * it counted in one batched statement every RATE_LIMIT_SYNC_MS. `key` is a hash of route
 * and client address, so no address is stored; ended windows are deleted in bounded batches.
 */
export const rateLimitWindows = rateLimitWindowsTable(verifierSchema);

export type SessionRow = typeof presentationSessions.$inferSelect;
export type PresentationResultRow = typeof presentationResults.$inferSelect;
export type DataKeyRow = typeof dataKeys.$inferSelect;
export type TrustAnchorRow = typeof trustAnchors.$inferSelect;
export type PresentationReadRow = typeof presentationReads.$inferSelect;

export const schema = {
  verifiers,
  verificationTemplates,
  signingKeys,
  pendingSigningKeys,
  registrationCertificates,
  platformSettings,
  presentationSessions,
  presentationResults,
  dataKeys,
  presentationReads,
  trustAnchors,
  webhooks,
  webhookDeliveries,
  webhookDeliveryAttempts,
};
export type VerifierDbSchema = typeof schema;

/**
 * An organisation's mdoc reader-authentication chain (ISO/IEC 18013-5 Annex B
 * reader profile), carried in the `x5chain` of its `org-iso-mdoc` ReaderAuths.
 * It certifies the organisation's P-256 request-signing key (`public_jwk` is the
 * key it was issued or imported for: a chain for another key is not used). No
 * private key here: ReaderAuths are signed with the `signing_keys` P-256 key.
 * `source` `platform`: issued by the platform CA, renewed like the request-signing
 * leaf; `imported`: the organisation's own chain (`PUT certificates/READER`).
 */
export const readerCertificates = verifierSchema.table('reader_certificates', {
  orgId: text('org_id').primaryKey(),
  publicJwk: jsonb('public_jwk').$type<Record<string, unknown>>().notNull(),
  /** base64 DER, leaf first, without the trust anchor. */
  certificateChain: jsonb('certificate_chain').$type<string[]>().notNull(),
  source: text('source').notNull(),
  ...timestamps,
});

export type ReaderCertificateRow = typeof readerCertificates.$inferSelect;
