import { readFileSync } from 'node:fs';
import { Type, type Static } from 'typebox';
import {
  commonConfigProperties,
  databaseTlsConfigRule,
  loadConfig,
  metricsConfigProperties,
  natsConfigProperties,
  natsConfigRule,
  oidcConfigProperties,
  oidcConfigRule,
  rateLimitConfigProperties,
  withSecretFiles,
} from '@tessera/service-kit';
import type { WebhookTargetPolicy } from './domain/webhook-target-policy.js';
import { parseHostList, type StatusListNetworkPolicy } from './domain/status-list-network-policy.js';

export const SERVICE_NAME = 'verifier';
export const DEFAULT_PORT = 3001;
/** METRICS_PORT when unset (README, Operating Tessera: Metrics). */
export const DEFAULT_METRICS_PORT = 9101;

export const VerifierConfigSchema = Type.Object({
  ...commonConfigProperties(DEFAULT_PORT),
  ...metricsConfigProperties,
  ...oidcConfigProperties,
  /** Base URL wallets reach this service at; its host is the SAN dNSName of request-signing leaves. Required outside development. */
  PUBLIC_BASE_URL: Type.Optional(Type.String({ pattern: '^https?://[^/?#]+/?$' })),
  /** 32 bytes, base64: encrypts private keys at rest (AES-256-GCM). Required outside development. */
  KEY_ENCRYPTION_KEY: Type.Optional(Type.String({ minLength: 40 })),
  /**
   * Rotation: the keys KEY_ENCRYPTION_KEY replaced, comma-separated (32 bytes, base64 each).
   * Values sealed under them still open; at start the data keys and the key check are
   * re-sealed under KEY_ENCRYPTION_KEY, and everything sealed afterwards uses it.
   */
  KEY_ENCRYPTION_KEY_PREVIOUS: Type.Optional(Type.String({ minLength: 1 })),
  /** Paths of files holding KEY_ENCRYPTION_KEY / KEY_ENCRYPTION_KEY_PREVIOUS (a mounted Secret), instead of the variables. */
  KEY_ENCRYPTION_KEY_FILE: Type.Optional(Type.String({ minLength: 1 })),
  KEY_ENCRYPTION_KEY_PREVIOUS_FILE: Type.Optional(Type.String({ minLength: 1 })),
  /** Platform request-signing CA, PEM (certificate and PKCS#8 key), inline or as files. Absent: generated at first start. */
  PLATFORM_CA_CERT_PEM: Type.Optional(Type.String({ minLength: 1 })),
  PLATFORM_CA_CERT_PEM_FILE: Type.Optional(Type.String({ minLength: 1 })),
  PLATFORM_CA_KEY_PEM: Type.Optional(Type.String({ minLength: 1 })),
  PLATFORM_CA_KEY_PEM_FILE: Type.Optional(Type.String({ minLength: 1 })),
  /** Session lifetime when a create call gives no `expiresInSeconds`. */
  SESSION_TTL_SECONDS: Type.Integer({ minimum: 1, maximum: 86400, default: 300 }),
  /** NATS server(s); absent: the in-process transport (single-process development). */
  ...natsConfigProperties,
  /**
   * Requests per client address and window on the public OID4VP endpoints. Generous on
   * purpose: behind a carrier-grade NAT thousands of phones share one public address, and
   * each wallet makes about three requests per presentation (request object, response,
   * sometimes the platform CA), so 1000/min serves some 300 presentations a minute from one
   * address. What bounds the work a single QR code can cause is the per-session limit below.
   */
  WALLET_RATE_LIMIT_MAX: Type.Integer({ minimum: 1, maximum: 1_000_000, default: 1000 }),
  /** The window of the per-address limit, and of the per-session counts. */
  WALLET_RATE_LIMIT_WINDOW_MS: Type.Integer({ minimum: 100, maximum: 3_600_000, default: 60_000 }),
  /** RATE_LIMIT_IPV6_PREFIX (IPv6 clients counted by network), RATE_LIMIT_SYNC_MS (how often replicas share their counts). */
  ...rateLimitConfigProperties(),
  /** Request-object fetches (GET/POST request_uri) per session and window, counted in PostgreSQL across replicas. */
  SESSION_REQUEST_FETCH_LIMIT: Type.Integer({ minimum: 1, maximum: 1_000_000, default: 10 }),
  /** Answers (wallet response endpoint, DC API verify-authorization-response) per session and window. */
  SESSION_RESPONSE_LIMIT: Type.Integer({ minimum: 1, maximum: 1_000_000, default: 5 }),
  /**
   * Session event streams (`GET verifier-presentation-events`) one organisation may hold
   * open on one replica at once; one more is 429 RATE_LIMITED with Retry-After.
   */
  SSE_MAX_STREAMS_PER_ORG: Type.Integer({ minimum: 1, maximum: 100_000, default: 100 }),
  /**
   * A heartbeat comment on every open session event stream this often; at the same pace
   * the replica re-reads the sessions its streams follow (a change whose event core NATS
   * dropped reaches the stream within one interval).
   */
  SSE_HEARTBEAT_MS: Type.Integer({ minimum: 100, maximum: 300_000, default: 15_000 }),
  /** A session event stream that sent no event for this long ends (the client may reconnect with Last-Event-ID). */
  SSE_IDLE_TIMEOUT_MS: Type.Integer({ minimum: 100, maximum: 86_400_000, default: 300_000 }),
  /** Longest a session event stream stays open, whatever it sent. */
  SSE_MAX_STREAM_MS: Type.Integer({ minimum: 100, maximum: 86_400_000, default: 3_600_000 }),
  /** Timeout of requests to the ecosystem service over NATS. */
  ECOSYSTEM_TIMEOUT_MS: Type.Integer({ minimum: 100, maximum: 30_000, default: 2000 }),
  /**
   * How often every ecosystem trust list this replica holds is asked for again.
   * Change events bring a change at once; this catches one core NATS dropped.
   */
  TRUST_LIST_REFRESH_MS: Type.Integer({ minimum: 100, maximum: 3_600_000, default: 120_000 }),
  /**
   * CA certificates every organisation trusts as issuers (read once at start): a PEM
   * bundle, or a JSON array `[{ certificatePem, credentialTypes? }]` that limits an
   * anchor to the `vct` values and doctypes listed.
   */
  TRUSTED_ISSUERS_FILE: Type.Optional(Type.String({ minLength: 1 })),
  /**
   * CA certificates (PEM bundle, read once at start) every organisation's verifiers'
   * registration certificates (ETSI TS 119 475) may validate to: the registrars' CAs.
   * Organisations add their own as trust anchors of purpose `registrar`.
   */
  REGISTRAR_TRUST_ANCHORS_FILE: Type.Optional(Type.String({ minLength: 1 })),
  /** Largest age of a KB-JWT `iat` accepted. */
  KB_MAX_AGE_SECONDS: Type.Integer({ minimum: 1, maximum: 86400, default: 300 }),
  /** Clock skew tolerated on `iat`, `nbf` and `exp`. */
  CLOCK_SKEW_SECONDS: Type.Integer({ minimum: 0, maximum: 600, default: 60 }),
  /** Status list fetches: whole-request timeout and largest token body. */
  STATUS_LIST_TIMEOUT_MS: Type.Integer({ minimum: 100, maximum: 60_000, default: 5000 }),
  STATUS_LIST_MAX_BYTES: Type.Integer({ minimum: 1024, maximum: 64 * 1024 * 1024, default: 1024 * 1024 }),
  /**
   * Longest a fetched status list token is used before it is fetched again, whatever its
   * `ttl` (and the lifetime of one without `ttl`): a revocation is seen within min(ttl, this).
   */
  STATUS_LIST_MAX_CACHE_SECONDS: Type.Integer({ minimum: 1, maximum: 86400, default: 300 }),
  /**
   * OID of the Token Status List signing extended key usage (`id-kp-oauthStatusSigning`),
   * which draft-ietf-oauth-status-list still lists as `{ id-kp TBD }`. When set, a
   * certificate carrying it under the issuer's anchor may sign the issuer's status lists;
   * absent, only the issuer's own certificate (or one with its subject) may.
   */
  STATUS_LIST_SIGNING_EKU: Type.Optional(Type.String({ pattern: '^[0-2](\\.(0|[1-9][0-9]*))+$', maxLength: 200 })),
  /** Fetch status lists over plain http. Default: true in development, false otherwise (see `statusListNetworkPolicyOf`). */
  STATUS_LIST_ALLOW_HTTP: Type.Optional(Type.Boolean()),
  /**
   * Refuse status list hosts that resolve to loopback, private, link-local, CGNAT, NAT64,
   * 6to4, benchmark, multicast, reserved or unspecified addresses. Default: false in
   * development, true otherwise.
   */
  STATUS_LIST_DENY_PRIVATE_ADDRESSES: Type.Optional(Type.Boolean()),
  /**
   * Comma-separated host names whose status lists are served inside the cluster (e.g. the
   * status list service's public name, routed internally): exempt from the address rule.
   */
  STATUS_LIST_INTERNAL_HOSTS: Type.Optional(
    Type.String({ pattern: '^\\s*[A-Za-z0-9.:\\[\\]-]+(\\s*,\\s*[A-Za-z0-9.:\\[\\]-]+)*\\s*$' }),
  ),
  /** Accept `http:` webhook URLs. Default: true in development, false otherwise (https only). */
  WEBHOOK_ALLOW_HTTP: Type.Optional(Type.Boolean()),
  /**
   * Refuse webhook targets that are or resolve to loopback, private, link-local, CGNAT
   * and the other non-public ranges (as for status lists), checked on the address
   * connected to at each attempt. Default: false in development, true otherwise.
   */
  WEBHOOK_DENY_PRIVATE_ADDRESSES: Type.Optional(Type.Boolean()),
  /** Delay before the first retry of a failed webhook delivery; each next delay doubles (plus up to 25 % jitter). */
  WEBHOOK_RETRY_BASE_MS: Type.Integer({ minimum: 10, maximum: 3_600_000, default: 5000 }),
  /** Longest delay between two attempts of a delivery. */
  WEBHOOK_RETRY_MAX_DELAY_MS: Type.Integer({ minimum: 10, maximum: 86_400_000, default: 3_600_000 }),
  /** How long a failed delivery is retried (from the event, or its last redelivery) before it is marked failed. */
  WEBHOOK_RETRY_PERIOD_MS: Type.Integer({ minimum: 1000, maximum: 30 * 86_400_000, default: 86_400_000 }),
  /** Timeout of one webhook attempt: connection, request and the receiver's status line. */
  WEBHOOK_TIMEOUT_MS: Type.Integer({ minimum: 100, maximum: 60_000, default: 10_000 }),
  /** How often each replica looks for due webhook deliveries while any is pending (a delivery written wakes it sooner). */
  WEBHOOK_POLL_INTERVAL_MS: Type.Integer({ minimum: 10, maximum: 60_000, default: 1000 }),
  /** While no delivery is pending, how often each replica looks anyway (it is woken when one is written: a safety net). */
  WEBHOOK_IDLE_POLL_INTERVAL_MS: Type.Integer({ minimum: 10, maximum: 600_000, default: 30_000 }),
  /** Deliveries one replica sends at once (its slots; a claim never takes more than the free ones). */
  WEBHOOK_CONCURRENCY: Type.Integer({ minimum: 1, maximum: 100, default: 10 }),
  /**
   * Deliveries in flight at once to one target (a webhook URL's host), all replicas and
   * organisations together: a receiver that never answers holds this many slots at most.
   */
  WEBHOOK_TARGET_CONCURRENCY: Type.Integer({ minimum: 1, maximum: 100, default: 2 }),
  /** Deliveries in flight at once for one organisation, all replicas together. */
  WEBHOOK_ORG_CONCURRENCY: Type.Integer({ minimum: 1, maximum: 1000, default: 5 }),
  /** Redeliveries (`POST …/redeliver`) per organisation and minute, all replicas together; past it 429 RATE_LIMITED. */
  WEBHOOK_REDELIVER_LIMIT: Type.Integer({ minimum: 1, maximum: 100_000, default: 60 }),
  /** How often each replica expires open sessions past their end that nobody read (state event and webhook). */
  SESSION_EXPIRY_SWEEP_MS: Type.Integer({ minimum: 100, maximum: 3_600_000, default: 5000 }),
  /** How long presentation data (claims) is kept after verification; a session's `presentationDataTtlSeconds` may shorten it. */
  PRESENTATION_DATA_TTL_SECONDS: Type.Integer({ minimum: 1, maximum: 31_536_000, default: 86_400 }),
  /**
   * Claims whose query claim does not say `intent_to_retain: true` are deleted this long
   * after the relying party first read them (`verifier-presentation-response`, or the DC
   * API answer): a retried read within the grace still gets them.
   */
  PRESENTATION_READ_GRACE_SECONDS: Type.Integer({ minimum: 0, maximum: 86_400, default: 60 }),
  /** How long a session record (without personal data) is kept after its creation. */
  SESSION_RETENTION_DAYS: Type.Integer({ minimum: 1, maximum: 3650, default: 30 }),
  /** How often the purge job runs (one replica at a time): expired presentation data, then sessions past retention. */
  PURGE_INTERVAL_SECONDS: Type.Integer({ minimum: 1, maximum: 86_400, default: 60 }),
});

export type VerifierConfig = Static<typeof VerifierConfigSchema>;

/** True when `value` is base64 of exactly 32 bytes. */
export function isKeyEncryptionKey(value: string): boolean {
  return /^[A-Za-z0-9+/]{43}=$/.test(value) && Buffer.from(value, 'base64').length === 32;
}

/** KEY_ENCRYPTION_KEY_PREVIOUS as a list (empty when unset). */
export function previousKeyEncryptionKeysOf(config: Pick<VerifierConfig, 'KEY_ENCRYPTION_KEY_PREVIOUS'>): string[] {
  return (config.KEY_ENCRYPTION_KEY_PREVIOUS ?? '')
    .split(',')
    .map((key) => key.trim())
    .filter((key) => key.length > 0);
}

/** Secrets the verifier also reads from files (`<NAME>_FILE`, see `withSecretFiles`). */
export const SECRET_FILE_VARIABLES = ['KEY_ENCRYPTION_KEY', 'KEY_ENCRYPTION_KEY_PREVIOUS'] as const;

export function loadVerifierConfig(env: Record<string, string | undefined> = process.env): VerifierConfig {
  return loadConfig(VerifierConfigSchema, withSecretFiles(env, SECRET_FILE_VARIABLES), [
    oidcConfigRule,
    databaseTlsConfigRule,
    natsConfigRule,
    (c) =>
      c.NODE_ENV !== 'development' && !c.PUBLIC_BASE_URL
        ? 'PUBLIC_BASE_URL: is required outside development mode'
        : undefined,
    (c) =>
      c.NODE_ENV !== 'development' && !c.KEY_ENCRYPTION_KEY
        ? 'KEY_ENCRYPTION_KEY: is required outside development mode'
        : undefined,
    (c) =>
      c.KEY_ENCRYPTION_KEY && !isKeyEncryptionKey(c.KEY_ENCRYPTION_KEY)
        ? 'KEY_ENCRYPTION_KEY: must be 32 bytes, base64-encoded'
        : undefined,
    (c) =>
      c.KEY_ENCRYPTION_KEY_PREVIOUS && !previousKeyEncryptionKeysOf(c).every(isKeyEncryptionKey)
        ? 'KEY_ENCRYPTION_KEY_PREVIOUS: must be comma-separated keys of 32 bytes, base64-encoded'
        : undefined,
    (c) =>
      c.KEY_ENCRYPTION_KEY_PREVIOUS && !c.KEY_ENCRYPTION_KEY
        ? 'KEY_ENCRYPTION_KEY_PREVIOUS: needs KEY_ENCRYPTION_KEY (the key that replaced them)'
        : undefined,
    (c) =>
      c.PLATFORM_CA_CERT_PEM && c.PLATFORM_CA_CERT_PEM_FILE
        ? 'PLATFORM_CA_CERT_PEM, PLATFORM_CA_CERT_PEM_FILE: give one, not both'
        : undefined,
    (c) =>
      c.PLATFORM_CA_KEY_PEM && c.PLATFORM_CA_KEY_PEM_FILE
        ? 'PLATFORM_CA_KEY_PEM, PLATFORM_CA_KEY_PEM_FILE: give one, not both'
        : undefined,
    (c) =>
      !!(c.PLATFORM_CA_CERT_PEM || c.PLATFORM_CA_CERT_PEM_FILE) !==
      !!(c.PLATFORM_CA_KEY_PEM || c.PLATFORM_CA_KEY_PEM_FILE)
        ? 'PLATFORM_CA_CERT_PEM, PLATFORM_CA_KEY_PEM: give both the CA certificate and its key, or neither'
        : undefined,
    (c) =>
      c.WEBHOOK_RETRY_MAX_DELAY_MS < c.WEBHOOK_RETRY_BASE_MS
        ? 'WEBHOOK_RETRY_MAX_DELAY_MS: must not be below WEBHOOK_RETRY_BASE_MS'
        : undefined,
  ]);
}

/**
 * Where status lists may be fetched from (VERIFIER.md round 2): production and test
 * refuse `http:` and internal addresses unless told otherwise; development (`npm
 * start`, everything on localhost) keeps both open. Test runs as production does, so
 * what is tested is the deployed default; test harnesses opt in explicitly.
 */
export function statusListNetworkPolicyOf(
  config: Pick<
    VerifierConfig,
    'NODE_ENV' | 'STATUS_LIST_ALLOW_HTTP' | 'STATUS_LIST_DENY_PRIVATE_ADDRESSES' | 'STATUS_LIST_INTERNAL_HOSTS'
  >,
): StatusListNetworkPolicy {
  const development = config.NODE_ENV === 'development';
  return {
    allowHttp: config.STATUS_LIST_ALLOW_HTTP ?? development,
    denyPrivateAddresses: config.STATUS_LIST_DENY_PRIVATE_ADDRESSES ?? !development,
    internalHosts: parseHostList(config.STATUS_LIST_INTERNAL_HOSTS),
  };
}

/**
 * What webhook targets may be: like status lists, production and test refuse
 * `http:` and non-public addresses unless told otherwise; development keeps both open.
 */
export function webhookTargetPolicyOf(
  config: Pick<VerifierConfig, 'NODE_ENV' | 'WEBHOOK_ALLOW_HTTP' | 'WEBHOOK_DENY_PRIVATE_ADDRESSES'>,
): WebhookTargetPolicy {
  const development = config.NODE_ENV === 'development';
  return {
    allowHttp: config.WEBHOOK_ALLOW_HTTP ?? development,
    denyPrivateAddresses: config.WEBHOOK_DENY_PRIVATE_ADDRESSES ?? !development,
  };
}

/**
 * The platform CA given in configuration (PLATFORM_CA_CERT_PEM / _KEY_PEM, inline or as
 * `_FILE`s read here), or undefined when none is: the key store then uses the one it
 * generated at first start (`openKeyStore`).
 */
export function platformCaPemOf(
  config: Pick<
    VerifierConfig,
    'PLATFORM_CA_CERT_PEM' | 'PLATFORM_CA_CERT_PEM_FILE' | 'PLATFORM_CA_KEY_PEM' | 'PLATFORM_CA_KEY_PEM_FILE'
  >,
): { certificatePem: string; privateKeyPem: string } | undefined {
  const certificatePem =
    config.PLATFORM_CA_CERT_PEM ??
    (config.PLATFORM_CA_CERT_PEM_FILE ? readFileSync(config.PLATFORM_CA_CERT_PEM_FILE, 'utf8') : undefined);
  const privateKeyPem =
    config.PLATFORM_CA_KEY_PEM ??
    (config.PLATFORM_CA_KEY_PEM_FILE ? readFileSync(config.PLATFORM_CA_KEY_PEM_FILE, 'utf8') : undefined);
  // Env vars often carry PEM with escaped newlines.
  const unescape = (pem: string) => pem.replace(/\\n/g, '\n');
  return certificatePem && privateKeyPem
    ? { certificatePem: unescape(certificatePem), privateKeyPem: unescape(privateKeyPem) }
    : undefined;
}

/** The public base URL in force, without a trailing slash. */
export function publicBaseUrlOf(config: Pick<VerifierConfig, 'PUBLIC_BASE_URL' | 'PORT'>): string {
  return (config.PUBLIC_BASE_URL ?? `http://localhost:${config.PORT}`).replace(/\/$/, '');
}
