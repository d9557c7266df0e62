import { createApp, createAuthHook, type App, type Database, type Logger, type MessageBus, type TokenVerifier } from '@tessera/service-kit';
import type { EcosystemConfig } from './config.js';
import type { EcosystemDbSchema } from './db/schema.js';
import { createFeatureGate } from './routes/feature-gate.js';
import { registerOrganisationRoutes } from './routes/organisations.js';
import { registerStatusRoute } from './routes/ecosystem-status.js';
import { registerLeadInvitationRoutes } from './routes/lead-invitations.js';
import { registerEcosystemRoutes } from './routes/ecosystems.js';
import { registerMembershipRoutes } from './routes/memberships.js';
import { registerIntentRoutes } from './routes/intents.js';
import { registerIntentTemplateRoutes } from './routes/intent-templates.js';
import { registerIntentNoticeRoutes } from './routes/intent-notices.js';
import type { RouteDeps } from './routes/route-deps.js';

export interface EcosystemAppDeps {
  config: EcosystemConfig;
  database: Database<EcosystemDbSchema>;
  bus: MessageBus;
  /** Verifies bearer tokens; tests pass one built on their own key set. */
  verifyToken: TokenVerifier;
  logger: Logger;
}

/** Builds the ecosystem service's app. No I/O happens here beyond what `deps` do. */
export async function buildApp(deps: EcosystemAppDeps): Promise<App> {
  const app = await createApp({
    name: 'ecosystem',
    title: 'Tessera ecosystem service',
    description: 'Ecosystems of organisations: lead and member invitations, memberships, intents, intent templates and consent notices (ISO/IEC TS 27560, DPV).',
    logger: deps.logger,
    bodyLimit: deps.config.MAX_BODY_BYTES,
    ...(deps.config.TRUST_PROXY ? { trustProxy: deps.config.TRUST_PROXY } : {}),
    readiness: { database: () => deps.database.ping(), nats: () => deps.bus.ping() },
    ...(deps.config.PUBLIC_BASE_URL ? { publicBaseUrl: deps.config.PUBLIC_BASE_URL } : {}),
    securitySchemes: { bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' } },
  });
  const routeDeps: RouteDeps = { db: deps.database.db, bus: deps.bus, logger: deps.logger, enabled: deps.config.ECOSYSTEM_ENABLED };
  await app.register(async (v1: App) => {
    // Authentication first: a request without a valid token is 401 before anything else.
    v1.addHook('onRequest', createAuthHook(deps.verifyToken));
    registerStatusRoute(v1, routeDeps);
    registerOrganisationRoutes(v1, routeDeps);
    await v1.register(async (gated: App) => {
      gated.addHook('onRequest', createFeatureGate(routeDeps.enabled));
      registerLeadInvitationRoutes(gated, routeDeps);
      registerEcosystemRoutes(gated, routeDeps);
      registerMembershipRoutes(gated, routeDeps);
      registerIntentRoutes(gated, routeDeps);
      registerIntentTemplateRoutes(gated, routeDeps);
      registerIntentNoticeRoutes(gated, routeDeps);
    });
  });
  await app.ready();
  return app;
}
