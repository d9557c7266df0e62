import {
  createApp,
  createServiceMetrics,
  type App,
  type Clock,
  type Logger,
  type ServiceMetrics,
} from '@tessera/service-kit';
import { publicBaseUrlOf, serviceUrlsOf, type ConsoleConfig } from './config.js';

import { createEcosystemApi } from './network/ecosystem-api.js';
import { createOidcClient } from './network/oidc-client.js';
import { createServiceClient } from './network/service-client.js';
import { createStatusListApi } from './network/status-list-api.js';
import { createVerifierApi } from './network/verifier-api.js';
import { registerAssetRoutes } from './routes/assets.js';
import { registerDirectoryRoutes } from './routes/directory.js';
import { registerEcosystemRoutes } from './routes/ecosystem.js';
import { registerEcosystemsRoutes } from './routes/ecosystems.js';
import { registerHomeRoutes } from './routes/home.js';
import { registerIntentRoutes } from './routes/intents.js';
import { registerOverviewRoutes } from './routes/overview.js';
import { registerPlatformAdminRoutes } from './routes/platform-admin.js';
import { registerSessionRoutes } from './routes/sessions.js';
import { registerStatusListRoutes } from './routes/status-lists.js';
import { registerSigningCertificateRoutes } from './routes/signing-certificates.js';
import { registerTemplateRoutes } from './routes/templates.js';
import { registerTrustAnchorRoutes } from './routes/trust-anchors.js';
import { registerVerifierRoutes } from './routes/verifiers.js';
import { registerTrustRegistryRoutes } from './routes/trust-registry.js';
import { installPageErrors } from './routes/page-errors.js';
import { registerSignInRoutes } from './routes/sign-in.js';
import { installWebSession } from './routes/web-session.js';
import { createCookieSeal } from './crypto/cookie-seal.js';
import { EndedSessions } from './state/ended-sessions.js';
import { SessionRenewals } from './state/session-renewals.js';
import type { SessionGrant } from './use-cases/steps/session-from-tokens.js';
import type { MintDevelopmentToken } from './use-cases/sign-in-for-development.js';

export interface ConsoleAppDeps {
  config: ConsoleConfig;
  logger: Logger;
  /** Seals the session cookies and signs the anti-forgery cookie: SESSION_SECRET, or the development secret. */
  sessionSecret: string;
  /** Development mode: mints tokens with the development key (never given otherwise). */
  mintDevelopmentToken?: MintDevelopmentToken;
  metrics?: ServiceMetrics;
  /** The time every use case and store reads (`systemClock` in production, set by server.ts). */
  clock: Clock;
}

/** Builds the console's app: its pages and their backend. No I/O happens here beyond what `deps` do. */
export async function buildApp(deps: ConsoleAppDeps): Promise<App> {
  const { config, logger } = deps;
  const { clock } = deps;
  const metrics = deps.metrics ?? createServiceMetrics({ service: 'console' });
  const publicBaseUrl = publicBaseUrlOf(config);
  const urls = serviceUrlsOf(config);

  const client = (service: 'verifier' | 'ecosystem' | 'status-list', baseUrl: string) =>
    createServiceClient({ service, baseUrl, timeoutMs: config.UPSTREAM_TIMEOUT_MS });
  const verifierClient = client('verifier', urls.verifier);
  const ecosystemClient = client('ecosystem', urls.ecosystem);
  const statusListClient = client('status-list', urls.statusList);
  const verifier = createVerifierApi(verifierClient);
  const ecosystem = createEcosystemApi(ecosystemClient);
  const statusList = createStatusListApi(statusListClient);

  const oidc =
    config.OIDC_ISSUER && config.OIDC_CLIENT_ID && config.OIDC_CLIENT_SECRET
      ? createOidcClient({
          issuer: config.OIDC_ISSUER,
          clientId: config.OIDC_CLIENT_ID,
          clientSecret: config.OIDC_CLIENT_SECRET,
          redirectUri: `${publicBaseUrl}/auth/callback`,
          scopes: config.OIDC_SCOPES,
          allowHttp: config.OIDC_ALLOW_HTTP,
          timeoutMs: config.UPSTREAM_TIMEOUT_MS,
        })
      : undefined;
  // Sessions live in the browser's cookie, sealed under SESSION_SECRET: any replica serves any signed-in person.
  const seal = createCookieSeal(deps.sessionSecret);
  const lifetime = { idleMs: config.SESSION_IDLE_MINUTES * 60_000, maxAgeMs: config.SESSION_MAX_HOURS * 3_600_000 };
  const endedSessions = new EndedSessions({ maxEntries: config.SESSION_MAX_ENTRIES, maxAgeMs: lifetime.maxAgeMs });
  const renewals = new SessionRenewals<SessionGrant>();
  const sessionDeps = { seal, lifetime, endedSessions, clock };

  const app = await createApp({
    name: 'console',
    title: 'Tessera console',
    description:
      "The console's backend-for-frontend: server-rendered pages that call the verifier, ecosystem and status list services' public APIs with the signed-in user's tokens.",
    logger,
    bodyLimit: config.MAX_BODY_BYTES,
    ...(config.TRUST_PROXY ? { trustProxy: config.TRUST_PROXY } : {}),
    readiness: {},
    informational: {
      verifier: () => verifierClient.alive(),
      ecosystem: () => ecosystemClient.alive(),
      statusList: () => statusListClient.alive(),
    },
    publicBaseUrl,
    metrics: metrics.http,
  });
  await registerAssetRoutes(app);

  const contentSecurityPolicy = pageContentSecurityPolicy(config.OIDC_ISSUER);
  await app.register(async (pages) => {
    pages.addHook('onRequest', async (_request, reply) => {
      // Forms go back to the page they came from (a refused form's flash): the Referer of same-origin requests only.
      void reply.header('content-security-policy', contentSecurityPolicy).header('referrer-policy', 'same-origin');
    });
    await installWebSession(pages as App, {
      secret: deps.sessionSecret,
      bodyLimit: config.MAX_BODY_BYTES,
      resume: {
        ...sessionDeps,
        renewals,
        ...(oidc ? { oidc } : {}),
        ...(deps.mintDevelopmentToken ? { mintDevelopmentToken: deps.mintDevelopmentToken } : {}),
      },
    });
    installPageErrors(pages as App, new URL(publicBaseUrl).origin);
    registerSignInRoutes(pages as App, {
      ...(oidc ? { oidc: { oidc, ...sessionDeps } } : {}),
      ...(deps.mintDevelopmentToken
        ? { development: { ...sessionDeps, mintDevelopmentToken: deps.mintDevelopmentToken } }
        : {}),
      signOut: { seal, endedSessions, ...(oidc ? { oidc } : {}) },
      publicBaseUrl,
    });
    const routes = pages as App;
    registerHomeRoutes(routes, { ecosystem });
    registerPlatformAdminRoutes(routes, { ecosystem });
    registerDirectoryRoutes(routes, { ecosystem });
    registerEcosystemsRoutes(routes, { ecosystem });
    registerEcosystemRoutes(routes, { ecosystem });
    registerIntentRoutes(routes, { ecosystem, verifier });
    registerTrustRegistryRoutes(routes, { ecosystem, clock });
    registerVerifierRoutes(routes, { verifier });
    registerTemplateRoutes(routes, { verifier });
    registerTrustAnchorRoutes(routes, { verifier, clock });
    registerSigningCertificateRoutes(routes, { verifier, clock });
    registerOverviewRoutes(routes, { verifier, clock, maxSessions: config.OVERVIEW_MAX_SESSIONS });
    registerSessionRoutes(routes, {
      verifier,
      ecosystem,
      clock,
      refreshMs: config.SESSION_LIST_REFRESH_MS,
      heartbeatMs: config.SSE_HEARTBEAT_MS,
    });
    registerStatusListRoutes(routes, { statusList });
  });
  await app.ready();
  return app;
}

/**
 * Pages run only the console's own scripts and styles; images may come from https
 * (verifier logos are shown as a wallet would); forms post to the console, and sign-out
 * may be sent on to the provider's logout.
 */
function pageContentSecurityPolicy(oidcIssuer: string | undefined): string {
  const formTargets = ["'self'", ...(oidcIssuer ? [new URL(oidcIssuer).origin] : [])].join(' ');
  return [
    "default-src 'none'",
    "script-src 'self'",
    "style-src 'self'",
    "img-src 'self' data: https:",
    "connect-src 'self'",
    `form-action ${formTargets}`,
    "frame-ancestors 'none'",
    "base-uri 'none'",
  ].join('; ');
}
