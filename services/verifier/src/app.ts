import {
  type App,
  type Clock,
  createApp,
  createServiceMetrics,
  type Database,
  instrumentBus,
  type Logger,
  type MessageBus,
  postgresRateLimitWindows,
  registerSharedRateLimit,
  type ServiceMetrics,
  serviceTracer,
  type TokenVerifier,
} from '@tessera/service-kit';
import { subscribeSessionUpdates } from './bus/session-updated-subscriber.js';
import { subscribeTrustListChanges } from './bus/trust-list-changed-subscriber.js';
import { serveVerificationTemplateGet } from './bus/verification-template-responder.js';
import {
  publicBaseUrlOf,
  SERVICE_NAME,
  statusListNetworkPolicyOf,
  webhookTargetPolicyOf,
  type VerifierConfig,
} from './config.js';
import type { KeyEncryptionKey } from './crypto/key-encryption.js';
import type { PlatformCa } from './crypto/platform-ca.js';
import type { VerifierDbSchema } from './db/schema.js';
import { WEBHOOK_DELIVERIES_CHANNEL } from './db/webhook-deliveries.js';
import { createBackgroundJobs } from './jobs/background-jobs.js';
import { createVerifierMetrics } from './metrics/verifier-metrics.js';
import { registerCertificateRoutes } from './routes/certificates.js';
import { registerManagementRoutes } from './routes/management.js';
import { registerPlatformCaRoute } from './routes/platform-ca.js';
import { registerPresentationReadRoutes } from './routes/presentation-reads.js';
import { registerPresentationResponseRoutes } from './routes/presentation-responses.js';
import { registerPresentationSessionEventRoutes } from './routes/presentation-session-events.js';
import { registerPresentationSessionRoutes } from './routes/presentation-sessions.js';
import { registerPresentationRoutes } from './routes/presentations.js';
import { registerReaderCertificateRoutes } from './routes/reader-certificates.js';
import { registerRegistrationCertificateRoutes } from './routes/registration-certificates.js';
import { registerTrustAnchorRoutes } from './routes/trust-anchors.js';
import { registerVerificationTemplateRoutes } from './routes/verification-templates.js';
import { registerVerifierRoutes } from './routes/verifiers.js';
import { registerWalletRoutes } from './routes/wallet.js';
import { registerWebhookRoutes } from './routes/webhooks.js';
import { createDataKeyRing } from './state/data-key-ring.js';
import { createReaderAuthMaterialLoader } from './state/reader-auth-material-loader.js';
import { SessionEventHub } from './state/session-event-hub.js';
import { createSigningMaterials } from './state/signing-material-loader.js';
import { createSessionVerifiers } from './state/session-verifiers.js';
import { createStatusListChecker } from './state/status-list-checker.js';
import { TrustListSnapshots } from './state/trust-list-snapshots.js';
import { createVerificationCache } from './state/verification-cache.js';
import { createWebhookDeliverySlots } from './state/webhook-delivery-slots.js';
import { persistSessionExpiry } from './use-cases/steps/persist-session-expiry.js';
import { createTrustStoreLoader, type TrustedIssuer } from './use-cases/steps/load-trust-store.js';
import type { VerificationCache } from './verification/index.js';
import { createWebhookSender, type WebhookSender } from './webhooks/create-webhook-sender.js';

export interface VerifierAppDeps {
  config: VerifierConfig;
  database: Database<VerifierDbSchema>;
  bus: MessageBus;
  verifyToken: TokenVerifier;
  logger: Logger;
  keyEncryptionKey: KeyEncryptionKey;
  /** The platform CA in force (see `openKeyStore`). */
  platformCa: PlatformCa;
  /** The clock every use case and state object reads: the system clock (`server.ts`), shifted in tests. */
  clock: Clock;
  /** Platform issuer anchors, from TRUSTED_ISSUERS_FILE (`loadTrustedIssuers`); a bare PEM string is an anchor for any credential type. */
  trustedIssuers?: Array<TrustedIssuer | string>;
  /** Platform registrar anchors (PEM), from REGISTRAR_TRUST_ANCHORS_FILE (`loadRegistrarAnchors`). */
  registrarAnchors?: string[];
  /** The fetch status lists are read with; the guarded fetch of the config's policy unless given. */
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
 * Builds the verifier's app, the composition root: the replica's long-lived state
 * (`state/`, each object behind the narrow interface its use cases name), then each
 * route module, the bus adapters and the background jobs with exactly the deps their
 * use cases take. Runs no query and sends nothing itself: the bus adapters, the
 * state's timers and the jobs start once the app is built (so a failed build leaves
 * nothing answering) and stop when it closes.
 */
export async function buildApp(deps: VerifierAppDeps): Promise<App> {
  const { config, logger, keyEncryptionKey, clock } = deps;
  const serviceMetrics = deps.metrics ?? createServiceMetrics({ service: 'verifier' });
  // Requests this service sends (trust lists, intent resolutions) are counted and timed by subject and result.
  const bus = instrumentBus(deps.bus, serviceMetrics.nats);
  const metrics = createVerifierMetrics(serviceMetrics.registry);
  const db = deps.database.db;
  const baseUrl = publicBaseUrlOf(config);
  // SAN dNSName of platform leaves and the `x509_san_dns` client identifier.
  const host = new URL(baseUrl).hostname;

  // The replica's long-lived state (state/), one of each per app.
  const signingMaterials = createSigningMaterials({ db, keyEncryptionKey, ca: deps.platformCa, host, clock });
  const loadSigningMaterial = signingMaterials.load;
  // The verifiers last read for a session: with the signing material, the next session of one is one statement.
  const sessionVerifiers = createSessionVerifiers();
  // The organisations' mdoc reader authentication (org-iso-mdoc): their P-256 key and its reader chain.
  const loadReaderAuthMaterial = createReaderAuthMaterialLoader({
    db,
    ca: deps.platformCa,
    host,
    clock,
    loadSigningMaterial,
  });
  // Organisations' data keys, unwrapped once per replica (presentation data at rest).
  const dataKeys = createDataKeyRing({ db, keyEncryptionKey, clock });
  // Trust and chains derived once, keyed by their content.
  const verificationCache = deps.verificationCache ?? createVerificationCache();
  // The ecosystem trust lists this replica follows, fed by their change events (bus/).
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
  // The sessions this replica's event streams follow, fed by one NATS subscription (bus/).
  const sessionEvents = new SessionEventHub({
    db,
    clock,
    logger,
    persistExpiry: (session, now) => persistSessionExpiry({ db, bus }, { ...session, now }),
    maxStreamsPerOrg: config.SSE_MAX_STREAMS_PER_ORG,
    resyncMs: config.SSE_HEARTBEAT_MS,
  });
  deps.onSessionEvents?.(sessionEvents);
  // Its token cache is shared by all verifications.
  const statusLists = createStatusListChecker({
    metrics,
    ...(deps.statusListFetch ? { fetch: deps.statusListFetch } : {}),
    timeoutMs: config.STATUS_LIST_TIMEOUT_MS,
    maxBodyBytes: config.STATUS_LIST_MAX_BYTES,
    maxCacheSeconds: config.STATUS_LIST_MAX_CACHE_SECONDS,
    ...(config.STATUS_LIST_SIGNING_EKU ? { statusSigningEku: config.STATUS_LIST_SIGNING_EKU } : {}),
    // http allowed, internal addresses refused, internal hosts: production/test vs development defaults.
    ...statusListNetworkPolicyOf(config),
  });

  // Per-session limits on the public endpoints and the DC API call, counted in PostgreSQL (see domain/session-limits.ts).
  const sessionLimits = {
    requestFetches: config.SESSION_REQUEST_FETCH_LIMIT,
    responses: config.SESSION_RESPONSE_LIMIT,
    windowMs: config.WALLET_RATE_LIMIT_WINDOW_MS,
  };
  // What the two answer use cases (wallet response, DC API response) take: PresentationAnswerDeps.
  const tracer = serviceTracer(SERVICE_NAME);
  const answerDeps = {
    db,
    bus,
    clock,
    keyEncryptionKey,
    dataKeys,
    logger,
    sessionLimits,
    presentationData: {
      ttlSeconds: config.PRESENTATION_DATA_TTL_SECONDS,
      readGraceSeconds: config.PRESENTATION_READ_GRACE_SECONDS,
    },
    metrics,
    loadTrustStore: createTrustStoreLoader({
      db,
      trustedIssuers: (deps.trustedIssuers ?? []).map((entry) =>
        typeof entry === 'string' ? { certificatePem: entry } : entry,
      ),
    }),
    trustLists,
    statusLists,
    verificationCache,
    kbMaxAgeSeconds: config.KB_MAX_AGE_SECONDS,
    clockSkewSeconds: config.CLOCK_SKEW_SECONDS,
    ...(tracer ? { tracer } : {}),
  };
  const walletRateLimit = { max: config.WALLET_RATE_LIMIT_MAX, timeWindow: config.WALLET_RATE_LIMIT_WINDOW_MS };
  // The session lifetimes job, the webhook worker and the trust lists at start (jobs/).
  const jobs = createBackgroundJobs({
    logger,
    lifetimes: {
      db,
      bus,
      clock,
      logger,
      metrics,
      expiryIntervalMs: config.SESSION_EXPIRY_SWEEP_MS,
      purgeIntervalMs: config.PURGE_INTERVAL_SECONDS * 1000,
      retentionDays: config.SESSION_RETENTION_DAYS,
    },
    webhooks: {
      pollIntervalMs: config.WEBHOOK_POLL_INTERVAL_MS,
      idlePollIntervalMs: config.WEBHOOK_IDLE_POLL_INTERVAL_MS,
      // Every replica is woken when any writes a delivery (the triggers of migration 0015).
      listen: (onNotice) => deps.database.listen(WEBHOOK_DELIVERIES_CHANNEL, onNotice, onNotice),
      deliveries: {
        db,
        clock,
        keyEncryptionKey,
        logger,
        send:
          deps.sendWebhook ??
          createWebhookSender({
            denyPrivateAddresses: webhookTargetPolicyOf(config).denyPrivateAddresses,
            timeoutMs: config.WEBHOOK_TIMEOUT_MS,
          }),
        retry: {
          baseMs: config.WEBHOOK_RETRY_BASE_MS,
          maxDelayMs: config.WEBHOOK_RETRY_MAX_DELAY_MS,
          periodMs: config.WEBHOOK_RETRY_PERIOD_MS,
        },
        // An attempt takes at most its timeout; the rest is room to record it before another replica may take the row.
        claimMs: config.WEBHOOK_TIMEOUT_MS + 60_000,
        // Each delivery in a slot of its own; a slot that frees wakes the worker (jobs is set by then).
        slots: createWebhookDeliverySlots({
          size: config.WEBHOOK_CONCURRENCY,
          logger,
          onFree: () => jobs.wakeDeliveries(),
        }),
        perTarget: config.WEBHOOK_TARGET_CONCURRENCY,
        perOrganisation: config.WEBHOOK_ORG_CONCURRENCY,
        metrics,
      },
    },
    registrationCertificateExpiry: { db, clock, logger, metrics },
    trustListsOfOpenSessions: { db, clock, trustLists },
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
  // Per-address counts judged in memory and shared through PostgreSQL in the background:
  // one limit for all replicas, and no statement on a limited request's path.
  const rateLimitCounts = await registerSharedRateLimit(app, {
    store: postgresRateLimitWindows(db, { schema: 'verifier' }),
    clock,
    logger,
    registry: serviceMetrics.registry,
    syncIntervalMs: config.RATE_LIMIT_SYNC_MS,
    ipv6PrefixLength: config.RATE_LIMIT_IPV6_PREFIX,
  });
  await registerManagementRoutes(app, {
    verifyToken: deps.verifyToken,
    routes: [
      (api) => registerVerifierRoutes(api, { db, clock }),
      (api) => registerVerificationTemplateRoutes(api, { db, clock, metrics }),
      (api) =>
        registerPresentationRoutes(api, {
          db,
          bus,
          clock,
          keyEncryptionKey,
          loadSigningMaterial,
          rememberedSigningMaterial: signingMaterials.remembered,
          sessionVerifiers,
          loadReaderAuthMaterial,
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
      // Before certificates/{keyType}: its static path is the one that answers certificates/READER.
      (api) => registerReaderCertificateRoutes(api, { db, clock, loadSigningMaterial, loadReaderAuthMaterial }),
      (api) => registerCertificateRoutes(api, { db, keyEncryptionKey, clock, loadSigningMaterial }),
      (api) =>
        registerRegistrationCertificateRoutes(api, {
          db,
          clock,
          clockSkewSeconds: config.CLOCK_SKEW_SECONDS,
          registrarAnchors: deps.registrarAnchors ?? [],
          metrics,
        }),
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
          redeliverLimit: config.WEBHOOK_REDELIVER_LIMIT,
        }),
    ],
  });
  await registerPlatformCaRoute(app, { certificatePem: deps.platformCa.certificatePem, rateLimit: walletRateLimit });
  await registerWalletRoutes(app, {
    requests: { db, bus, clock, loadSigningMaterial, logger, sessionLimits, metrics },
    responses: answerDeps,
    rateLimit: walletRateLimit,
  });

  let stopResponderAndTrustLists = () => {};
  let stopSessionEvents = () => {};
  app.addHook('onClose', async () => {
    stopResponderAndTrustLists();
    // Before the database closes (resources close after the app): a run in progress records what it did.
    await jobs.stop();
    stopSessionEvents();
    await rateLimitCounts.stop();
  });
  await app.ready();
  // Started once the app is built, so a failed build leaves nothing answering.
  const stopResponder = serveVerificationTemplateGet(bus, { db, logger });
  const stopTrustListEvents = subscribeTrustListChanges(bus, {
    logger,
    onChanged: (event) => trustLists.announce(event),
  });
  const stopTrustListRefresh = trustLists.start();
  stopResponderAndTrustLists = () => {
    stopResponder();
    stopTrustListEvents();
    stopTrustListRefresh();
  };
  jobs.start();
  rateLimitCounts.start();
  const stopSessionUpdates = subscribeSessionUpdates(bus, {
    logger,
    onUpdated: (session) => sessionEvents.changed(session),
  });
  const stopSessionResync = sessionEvents.start();
  stopSessionEvents = () => {
    stopSessionUpdates();
    stopSessionResync();
  };
  return app;
}
