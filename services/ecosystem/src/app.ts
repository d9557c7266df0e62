import { createApp, createAuthHook, type App, type Database, type Logger, type MessageBus, type TokenVerifier } from '@tessera/service-kit';
import { serveIntentResolve } from './bus/intent-resolve-responder.js';
import { followOrganisationEvents } from './bus/organisation-subscriber.js';
import type { ResolutionCache } from './cache/resolution-cache.js';
import type { EcosystemConfig } from './config.js';
import type { EcosystemDbSchema } from './db/schema.js';
import { registerStatusRoute } from './routes/ecosystem-status.js';
import { registerEcosystemRoutes } from './routes/ecosystems.js';
import { createFeatureGate } from './routes/feature-gate.js';
import { registerIntentNoticeRoutes } from './routes/intent-notices.js';
import { registerIntentTemplateRoutes } from './routes/intent-templates.js';
import { registerIntentRoutes } from './routes/intents.js';
import { registerLeadInvitationRoutes } from './routes/lead-invitations.js';
import { registerMembershipRoutes } from './routes/memberships.js';
import { registerOrganisationRoutes } from './routes/organisations.js';
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
  /** Intent resolutions kept in step with the database by its change notifications (cache/). */
  resolutions: ResolutionCache<IntentResolution>;
}

/**
 * Builds the ecosystem service's app: the HTTP routes and the bus adapters (the
 * `ecosystem.v1.intent.resolve` responder and the organisation event subscriber), which
 * stop when the app closes. No I/O happens here beyond what `deps` do.
 */
export async function buildApp(deps: EcosystemAppDeps): Promise<App> {
  const { config, bus, logger, resolutions } = deps;
  const db = deps.database.db;
  const enabled = config.ECOSYSTEM_ENABLED;
  const app = await createApp({
    name: 'ecosystem',
    title: 'Tessera ecosystem service',
    description: 'Ecosystems of organisations: lead and member invitations, memberships, intents, intent templates and consent notices (ISO/IEC TS 27560, DPV).',
    logger,
    bodyLimit: config.MAX_BODY_BYTES,
    ...(config.TRUST_PROXY ? { trustProxy: config.TRUST_PROXY } : {}),
    readiness: { database: () => deps.database.ping(), nats: () => bus.ping() },
    ...(config.PUBLIC_BASE_URL ? { publicBaseUrl: config.PUBLIC_BASE_URL } : {}),
    securitySchemes: { bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' } },
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
      registerTrustedEntityRoutes(gated, { db, bus, logger });
      registerTrustSettingsRoutes(gated, { db });
    });
  });
  const stopBusAdapters: Array<() => void> = [];
  app.addHook('onClose', async () => {
    for (const stop of stopBusAdapters) stop();
  });
  await app.ready();
  // The bus adapters start once the app is built, so a failed build leaves nothing answering.
  stopBusAdapters.push(serveIntentResolve({ bus, logger, db, enabled, resolutions }), followOrganisationEvents({ bus, logger, db }));
  return app;
}
