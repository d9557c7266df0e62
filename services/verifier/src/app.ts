import rateLimit from '@fastify/rate-limit';
import {
  createApp,
  createServiceMetrics,
  instrumentBus,
  type App,
  type Database,
  type Logger,
  type MessageBus,
  type ServiceMetrics,
  type TokenVerifier,
} from '@tessera/service-kit';
import { subscribeSessionUpdates } from './bus/session-updated-subscriber.js';
import { serveVerificationTemplateGet } from './bus/verification-template-responder.js';
import { publicBaseUrlOf, statusListNetworkPolicyOf, webhookTargetPolicyOf, type VerifierConfig } from './config.js';
import type { KeyEncryptionKey } from './crypto/key-encryption.js';
import type { PlatformCa } from './crypto/platform-ca.js';
import type { VerifierDbSchema } from './db/schema.js';
import type { Clock } from './domain/clock.js';
import { registerCertificateRoutes } from './routes/certificates.js';
import { registerManagementRoutes } from './routes/management.js';
import { registerPlatformCaRoute } from './routes/platform-ca.js';
import { registerPresentationReadRoutes } from './routes/presentation-reads.js';
import { registerPresentationResponseRoutes } from './routes/presentation-responses.js';
import { registerPresentationSessionEventRoutes } from './routes/presentation-session-events.js';
import { registerPresentationSessionRoutes } from './routes/presentation-sessions.js';
import { registerPresentationRoutes } from './routes/presentations.js';
import { rateLimitError } from './routes/public-errors.js';
import { createPostgresRateLimitStore } from './rate-limits/postgres-rate-limit-store.js';
import { registerTrustAnchorRoutes } from './routes/trust-anchors.js';
import { registerVerificationTemplateRoutes } from './routes/verification-templates.js';
import { registerVerifierRoutes } from './routes/verifiers.js';
import { registerWalletRoutes } from './routes/wallet.js';
import { registerWebhookRoutes } from './routes/webhooks.js';
import { createBackgroundJobs } from './jobs/background-jobs.js';
import { createVerifierMetrics } from './metrics/verifier-metrics.js';
import type { WebhookSender } from './webhooks/create-webhook-sender.js';
import { createDataKeyRing } from './state/data-key-ring.js';
import { createSigningMaterialLoader } from './state/signing-material-loader.js';
import { createTrustStoreLoader, type TrustedIssuer } from './use-cases/steps/load-trust-store.js';
import { createStatusListChecker, createVerificationCache, type VerificationCache } from './verification/index.js';
import { listTrustEcosystemsOfOpenSessions } from './db/sessions.js';
import { TrustListSnapshots } from './state/trust-list-snapshots.js';
import { SessionEventHub } from './state/session-event-hub.js';

export interface VerifierAppDeps {
  config: VerifierConfig;
  database: Database<VerifierDbSchema>;
  bus: MessageBus;
  verifyToken: TokenVerifier;
  logger: Logger;
  keyEncryptionKey: KeyEncryptionKey;
  /** The platform CA in force (see `openKeyStore`). */
  platformCa: PlatformCa;
  /** The clock; defaults to the system clock. */
  now?: Clock;
  /** Platform issuer anchors, from TRUSTED_ISSUERS_FILE (`loadTrustedIssuers`); a bare PEM string is an anchor for any credential type. */
  trustedIssuers?: Array<TrustedIssuer | string>;
  /** The fetch status lists are read with; defaults to the global fetch. */
  statusListFetch?: typeof fetch;
  /** What this replica remembers between verifications; a fresh one unless given (tests look into it). */
  verificationCache?: VerificationCache;
  /** Called with the replica's trust-list snapshots once built (tests look into them). */
  onTrustLists?: (trustLists: TrustListSnapshots) => void;
  /** How webhooks are POSTed; the guarded sender of the config unless given. */
  sendWebhook?: WebhookSender;
  /** Called with the replica's session event hub once built (tests look into it). */
  onSessionEvents?: (hub: SessionEventHub) => void;
  /** The service's metrics (`startService` serves them on METRICS_PORT); a registry of the app's own unless given. */
  metrics?: ServiceMetrics;
}

/**
 * Builds the verifier's app: the shared objects once (clock, base URL and host,
 * signing material and trust-store loaders, the status list checker), then each
 * route module and the NATS responder with exactly the deps its use cases take.
 * No I/O beyond what `deps` do; the responder starts once the app is built and
 * stops when it closes.
 */
export async function buildApp(deps: VerifierAppDeps): Promise<App> {
  const { config, logger, keyEncryptionKey } = deps;
  const serviceMetrics = deps.metrics ?? createServiceMetrics({ service: 'verifier' });
  // Requests this service sends (trust lists, intent resolutions) are counted and timed by subject and result.
  const bus = instrumentBus(deps.bus, serviceMetrics.nats);
  const metrics = createVerifierMetrics(serviceMetrics.registry);
  const db = deps.database.db;
  const clock: Clock = deps.now ?? (() => new Date());
  const baseUrl = publicBaseUrlOf(config);
  // SAN dNSName of platform leaves and the `x509_san_dns` client identifier.
  const host = new URL(baseUrl).hostname;
  const loadSigningMaterial = createSigningMaterialLoader({ db, keyEncryptionKey, ca: deps.platformCa, host, clock });
  // One per app (one per replica): trust and chains derived once, keyed by their content.
  const verificationCache = deps.verificationCache ?? createVerificationCache();
  // One per app: the ecosystem trust lists this replica follows (trust-lists/trust-list-snapshots.ts).
  const trustLists = new TrustListSnapshots({
    bus,
    clock,
    logger,
    cache: verificationCache,
    timeoutMs: config.ECOSYSTEM_TIMEOUT_MS,
    refreshMs: config.TRUST_LIST_REFRESH_MS,
    metrics,
  });
  deps.onTrustLists?.(trustLists);
  // One per app: the sessions this replica's event streams follow, fed by one NATS subscription.
  const sessionEvents = new SessionEventHub({
    db,
    bus,
    clock,
    logger,
    maxStreamsPerOrg: config.SSE_MAX_STREAMS_PER_ORG,
    resyncMs: config.SSE_HEARTBEAT_MS,
  });
  deps.onSessionEvents?.(sessionEvents);
  const verificationDeps = {
    trustLists,
    loadTrustStore: createTrustStoreLoader({
      db,
      trustedIssuers: (deps.trustedIssuers ?? []).map((entry) =>
        typeof entry === 'string' ? { certificatePem: entry } : entry,
      ),
    }),
    // One per app, so its token cache is shared by all verifications.
    statusLists: createStatusListChecker({
      metrics,
      ...(deps.statusListFetch ? { fetch: deps.statusListFetch } : {}),
      timeoutMs: config.STATUS_LIST_TIMEOUT_MS,
      maxBodyBytes: config.STATUS_LIST_MAX_BYTES,
      maxCacheSeconds: config.STATUS_LIST_MAX_CACHE_SECONDS,
      ...(config.STATUS_LIST_SIGNING_EKU ? { statusSigningEku: config.STATUS_LIST_SIGNING_EKU } : {}),
      // http allowed, internal addresses refused, internal hosts: production/test vs development defaults.
      ...statusListNetworkPolicyOf(config),
    }),
    verificationCache,
    kbMaxAgeSeconds: config.KB_MAX_AGE_SECONDS,
    clockSkewSeconds: config.CLOCK_SKEW_SECONDS,
  };
  const walletRateLimit = { max: config.WALLET_RATE_LIMIT_MAX, timeWindow: config.WALLET_RATE_LIMIT_WINDOW_MS };
  // Per-session limits on the public endpoints and the DC API call, counted in PostgreSQL (see domain/session-limits.ts).
  const sessionLimits = {
    requestFetches: config.SESSION_REQUEST_FETCH_LIMIT,
    responses: config.SESSION_RESPONSE_LIMIT,
    windowMs: config.WALLET_RATE_LIMIT_WINDOW_MS,
  };
  // What the two answer use cases (wallet response, DC API response) take.
  const presentationData = {
    ttlSeconds: config.PRESENTATION_DATA_TTL_SECONDS,
    readGraceSeconds: config.PRESENTATION_READ_GRACE_SECONDS,
  };
  // One per app: organisations' data keys, unwrapped once per replica (presentation data at rest).
  const dataKeys = createDataKeyRing({ db, keyEncryptionKey, clock });
  const answerDeps = {
    db,
    bus,
    clock,
    keyEncryptionKey,
    dataKeys,
    logger,
    sessionLimits,
    presentationData,
    metrics,
    ...verificationDeps,
  };
  // The session lifetimes job, the webhook worker and the rate-limit cleanup (jobs/background-jobs.ts), started once the app is ready.
  const jobs = createBackgroundJobs({
    config,
    db,
    bus,
    clock,
    keyEncryptionKey,
    logger,
    metrics,
    ...(deps.sendWebhook ? { sendWebhook: deps.sendWebhook } : {}),
  });

  const app = await createApp({
    name: 'verifier',
    title: 'Tessera verifier service',
    description:
      'OpenID4VP 1.0 verifier: verifiers, verification templates, request-signing keys and certificates, presentation sessions and the wallet-facing endpoints.',
    logger,
    bodyLimit: config.MAX_BODY_BYTES,
    ...(config.TRUST_PROXY ? { trustProxy: config.TRUST_PROXY } : {}),
    readiness: { database: () => deps.database.ping() },
    // Without NATS only intent-based requests fail (503): the pod still serves everything else.
    informational: { nats: () => bus.ping() },
    publicBaseUrl: baseUrl,
    securitySchemes: { bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' } },
    metrics: serviceMetrics.http,
  });
  // Per-address counts live in PostgreSQL, so the limit holds across replicas (not per pod).
  await app.register(rateLimit, {
    global: false,
    store: createPostgresRateLimitStore(db) as never,
    errorResponseBuilder: rateLimitError as never,
  });
  await registerManagementRoutes(app, {
    verifyToken: deps.verifyToken,
    routes: [
      (api) => registerVerifierRoutes(api, { db, clock }),
      (api) => registerVerificationTemplateRoutes(api, { db, clock }),
      (api) =>
        registerPresentationRoutes(api, {
          db,
          bus,
          clock,
          keyEncryptionKey,
          loadSigningMaterial,
          host,
          baseUrl,
          sessionTtlSeconds: config.SESSION_TTL_SECONDS,
          ecosystemTimeoutMs: config.ECOSYSTEM_TIMEOUT_MS,
          trustLists,
          metrics,
        }),
      (api) => registerPresentationSessionRoutes(api, { db, bus, clock }),
      (api) =>
        registerPresentationSessionEventRoutes(api, {
          db,
          bus,
          clock,
          hub: sessionEvents,
          stream: {
            heartbeatMs: config.SSE_HEARTBEAT_MS,
            idleTimeoutMs: config.SSE_IDLE_TIMEOUT_MS,
            maxDurationMs: config.SSE_MAX_STREAM_MS,
          },
        }),
      (api) => registerCertificateRoutes(api, { db, keyEncryptionKey, clock, loadSigningMaterial }),
      (api) => registerTrustAnchorRoutes(api, { db, clock }),
      (api) => registerPresentationResponseRoutes(api, answerDeps),
      (api) => registerPresentationReadRoutes(api, { db }),
      (api) =>
        registerWebhookRoutes(api, {
          db,
          clock,
          keyEncryptionKey,
          webhookTargets: webhookTargetPolicyOf(config),
          wakeDeliveries: () => jobs.wakeDeliveries(),
        }),
    ],
  });
  await registerPlatformCaRoute(app, { certificatePem: deps.platformCa.certificatePem, rateLimit: walletRateLimit });
  await registerWalletRoutes(app, {
    requests: { db, bus, clock, loadSigningMaterial, logger, sessionLimits, metrics },
    responses: answerDeps,
    rateLimit: walletRateLimit,
  });
  let stopResponder = () => {};
  let stopTrustLists = () => {};
  let stopSessionUpdates = () => {};
  let stopSessionResync = () => {};
  app.addHook('onClose', async () => {
    stopResponder();
    stopTrustLists();
    // Before the database closes (resources close after the app): a run in progress records what it did.
    await jobs.stop();
    stopSessionUpdates();
    stopSessionResync();
  });
  await app.ready();
  // The responder starts once the app is built, so a failed build leaves nothing answering.
  stopResponder = serveVerificationTemplateGet(bus, { db, logger });
  stopTrustLists = trustLists.start();
  jobs.start();
  stopSessionUpdates = subscribeSessionUpdates(bus, {
    logger,
    onUpdated: (sessionId) => sessionEvents.changed(sessionId),
  });
  stopSessionResync = sessionEvents.start();
  // At start, the lists open sessions will be verified against, fetched in the background:
  // a start does not wait for (or fail on) the ecosystem service; a verification that
  // finds no current list fetches it then, or answers 503.
  void listTrustEcosystemsOfOpenSessions(db, { now: clock() })
    .then((ecosystemIds) => trustLists.follow(ecosystemIds))
    .catch((error: unknown) => logger.warn({ err: error }, 'trust lists of open sessions not read at start'));
  return app;
}
