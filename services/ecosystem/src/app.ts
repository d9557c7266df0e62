import {
  createApp,
  createAuthHook,
  createServiceMetrics,
  instrumentBus,
  postgresRateLimitWindows,
  registerSharedRateLimit,
  sharedRateLimitHook,
  type App,
  type Clock,
  type Database,
  type Logger,
  type MessageBus,
  type ServiceMetrics,
  type TokenVerifier,
} from '@tessera/service-kit';
import type { CertificateAuthority } from '@tessera/service-kit/x509';
import { serveIntentResolve } from './bus/intent-resolve-responder.js';
import { followOrganisationEvents } from './bus/organisation-subscriber.js';
import { serveTrustListGet } from './bus/trust-list-get-responder.js';
import type { ResolutionCache } from './state/resolution-cache.js';
import { SignedTrustListCache } from './state/signed-trust-lists.js';
import { publicBaseUrlOf, type EcosystemConfig } from './config.js';
import { createTrustListSigner } from './crypto/trust-list-signer.js';
import type { EcosystemDbSchema } from './db/schema.js';
import { createEcosystemMetrics } from './metrics/ecosystem-metrics.js';
import { registerStatusRoute } from './routes/ecosystem-status.js';
import { registerEcosystemRoutes } from './routes/ecosystems.js';
import { createFeatureGate } from './routes/feature-gate.js';
import { registerIntentNoticeRoutes } from './routes/intent-notices.js';
import { registerIntentTemplateRoutes } from './routes/intent-templates.js';
import { registerIntentRoutes } from './routes/intents.js';
import { registerLeadInvitationRoutes } from './routes/lead-invitations.js';
import { registerMembershipRoutes } from './routes/memberships.js';
import { registerOrganisationRoutes } from './routes/organisations.js';
import { registerTrustListCaRoute } from './routes/trust-list-ca.js';
import { registerTrustListPreflight, registerTrustListRoute, TRUST_LIST_CORS_HEADERS } from './routes/trust-list.js';
import { registerTrustSettingsRoutes } from './routes/trust-settings.js';
import { registerTrustedEntityRoutes } from './routes/trusted-entities.js';
import type { IntentResolution } from './use-cases/resolve-intent.js';

export interface EcosystemAppDeps {
  config: EcosystemConfig;
  database: Database<EcosystemDbSchema>;
  bus: MessageBus;
  /** Verifies bearer tokens; tests pass one trusting their own identity provider. */
  verifyToken: TokenVerifier;
  logger: Logger;
  /** Intent resolutions kept in step with the database by its change notifications (state/). */
  resolutions: ResolutionCache<IntentResolution>;
  /** The trust-list CA (crypto/trust-list-ca.ts): certifies this replica's list-signing key, published at /v1/trust-list-ca.pem. */
  trustListCa: CertificateAuthority;
  /** The time of every use case that reads it (signed lists, `nextUpdate`, registry history); tests move it. */
  clock: Clock;
  /** The service's metrics (`startService` serves them on METRICS_PORT); a registry of the app's own unless given. */
  metrics?: ServiceMetrics;
}

/**
 * Builds the ecosystem service's app: the HTTP routes and the bus adapters (the
 * `ecosystem.v1.intent.resolve` and `ecosystem.v1.trust-list.get` responders and the
 * organisation event subscriber), which
 * stop when the app closes. No I/O happens here beyond what `deps` do.
 */
export async function buildApp(deps: EcosystemAppDeps): Promise<App> {
  const { config, logger, resolutions, clock } = deps;
  const metrics = deps.metrics ?? createServiceMetrics({ service: 'ecosystem' });
  // Requests this service sends are counted and timed by subject and result.
  const bus = instrumentBus(deps.bus, metrics.nats);
  const ecosystemMetrics = createEcosystemMetrics(metrics.registry);
  const db = deps.database.db;
  const enabled = config.ECOSYSTEM_ENABLED;
  const validitySeconds = config.TRUST_LIST_VALIDITY_SECONDS;
  const trustList = {
    db,
    clock,
    validitySeconds,
    signer: createTrustListSigner(deps.trustListCa),
    // Re-signed once half the validity has passed: a list fetched any time has at least half of it left.
    signedLists: new SignedTrustListCache({ resignAfterMs: (validitySeconds * 1000) / 2 }),
    publicBaseUrl: publicBaseUrlOf(config),
  };
  const app = await createApp({
    name: 'ecosystem',
    title: 'Tessera ecosystem service',
    description:
      'Ecosystems of organisations: lead and member invitations, memberships, intents, intent templates and consent notices (ISO/IEC TS 27560, DPV).',
    logger,
    bodyLimit: config.MAX_BODY_BYTES,
    ...(config.TRUST_PROXY ? { trustProxy: config.TRUST_PROXY } : {}),
    readiness: { database: () => deps.database.ping() },
    // Without NATS only what asks the verifier (verifier-role intent templates) answers 503: the pod still serves the rest.
    informational: { nats: () => bus.ping() },
    ...(config.PUBLIC_BASE_URL ? { publicBaseUrl: config.PUBLIC_BASE_URL } : {}),
    securitySchemes: { bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' } },
    metrics: metrics.http,
  });
  // Per-address counts of the public trust-list routes: judged in memory, shared through
  // PostgreSQL in the background (the kit's shared rate limits, as on the verifier's wallet routes).
  const rateLimitCounts = await registerSharedRateLimit(app, {
    store: postgresRateLimitWindows(db, { schema: 'ecosystem' }),
    clock,
    logger,
    registry: metrics.registry,
    syncIntervalMs: config.RATE_LIMIT_SYNC_MS,
    ipv6PrefixLength: config.RATE_LIMIT_IPV6_PREFIX,
  });
  await app.register(async (v1: App) => {
    // Authentication first: a request without a valid token is 401 before anything else.
    v1.addHook('onRequest', createAuthHook(deps.verifyToken));
    registerStatusRoute(v1, { enabled });
    registerOrganisationRoutes(v1, { db });
    await v1.register(async (gated: App) => {
      gated.addHook('onRequest', createFeatureGate(enabled));
      registerLeadInvitationRoutes(gated, { db });
      registerEcosystemRoutes(gated, { db });
      registerMembershipRoutes(gated, { db });
      registerIntentRoutes(gated, { db });
      registerIntentTemplateRoutes(gated, { db, bus });
      registerIntentNoticeRoutes(gated, { db });
      registerTrustedEntityRoutes(gated, { db, bus, logger, clock });
      registerTrustSettingsRoutes(gated, { db });
    });
  });
  // The trust list and its CA, outside the token-only scope: a public list is served to anyone.
  await app.register(async (open: App) => {
    // Every answer carries the CORS headers (a 429 too, so a page can read it); then the
    // per-address limit, before the token check: a refused request costs nothing more.
    open.addHook('onRequest', async (_request, reply) => {
      void reply.headers(TRUST_LIST_CORS_HEADERS);
    });
    open.addHook(
      'onRequest',
      sharedRateLimitHook(open, {
        max: config.TRUST_LIST_RATE_LIMIT_MAX,
        timeWindow: config.TRUST_LIST_RATE_LIMIT_WINDOW_MS,
      }),
    );
    registerTrustListCaRoute(open, { certificatePem: deps.trustListCa.certificatePem });
    registerTrustListPreflight(open);
    await open.register(async (list: App) => {
      list.addHook('onRequest', createAuthHook(deps.verifyToken, { optional: true }));
      list.addHook('onRequest', createFeatureGate(enabled));
      registerTrustListRoute(list, trustList);
    });
  });
  const stopBusAdapters: Array<() => void> = [];
  app.addHook('onClose', async () => {
    for (const stop of stopBusAdapters) stop();
    await rateLimitCounts.stop();
  });
  await app.ready();
  rateLimitCounts.start();
  // The bus adapters start once the app is built, so a failed build leaves nothing answering.
  stopBusAdapters.push(
    serveIntentResolve({ bus, logger, db, enabled, resolutions, metrics: ecosystemMetrics }),
    serveTrustListGet({ bus, logger, db, enabled, clock, validitySeconds }),
    followOrganisationEvents({ bus, logger, db, metrics: ecosystemMetrics }),
  );
  return app;
}
