import rateLimit from '@fastify/rate-limit';
import { createApp, type App, type Database, type Logger, type MessageBus, type TokenVerifier } from '@tessera/service-kit';
import { serveVerificationTemplateGet } from './bus/template-responder.js';
import { publicBaseUrlOf, type VerifierConfig } from './config.js';
import type { VerifierContext } from './context.js';
import type { KeyEncryptionKey } from './crypto/key-encryption.js';
import type { PlatformCa } from './crypto/platform-ca.js';
import type { VerifierDbSchema } from './db/schema.js';
import { registerManagementRoutes } from './routes/management.js';
import { rateLimitError, registerPublicRoutes } from './routes/public.js';
import { createStatusListChecker } from './verification/status-list-checker.js';

export interface VerifierAppDeps {
  config: VerifierConfig;
  database: Database<VerifierDbSchema>;
  bus: MessageBus;
  verifyToken: TokenVerifier;
  logger: Logger;
  keyEncryptionKey: KeyEncryptionKey;
  /** The platform CA in force (see `ensurePlatformCa`). */
  platformCa: PlatformCa;
  /** The clock; defaults to the system clock. */
  now?: () => Date;
  /** Platform issuer anchors (PEM), from TRUSTED_ISSUERS_FILE (`loadTrustedIssuers`). */
  trustedIssuers?: string[];
  /** The fetch status lists are read with; defaults to the global fetch. */
  statusListFetch?: typeof fetch;
}

/** Builds the verifier's app. No I/O beyond what `deps` do; the NATS responder stops when the app closes. */
export async function buildApp(deps: VerifierAppDeps): Promise<App> {
  const baseUrl = publicBaseUrlOf(deps.config);
  const ctx: VerifierContext = {
    config: deps.config,
    db: deps.database.db,
    bus: deps.bus,
    keyEncryptionKey: deps.keyEncryptionKey,
    ca: deps.platformCa,
    logger: deps.logger,
    baseUrl,
    host: new URL(baseUrl).hostname,
    now: deps.now ?? (() => new Date()),
    trustedIssuers: deps.trustedIssuers ?? [],
    statusLists: createStatusListChecker({
      ...(deps.statusListFetch ? { fetch: deps.statusListFetch } : {}),
      timeoutMs: deps.config.STATUS_LIST_TIMEOUT_MS,
      maxBodyBytes: deps.config.STATUS_LIST_MAX_BYTES,
      denyPrivateAddresses: deps.config.STATUS_LIST_DENY_PRIVATE_ADDRESSES,
    }),
  };
  const app = await createApp({
    name: 'verifier',
    title: 'Tessera verifier service',
    description: 'OpenID4VP 1.0 verifier: verifiers, verification templates, request-signing keys and certificates, presentation sessions and the wallet-facing endpoints.',
    logger: deps.logger,
    bodyLimit: deps.config.MAX_BODY_BYTES,
    ...(deps.config.TRUST_PROXY ? { trustProxy: deps.config.TRUST_PROXY } : {}),
    readiness: { database: () => deps.database.ping(), nats: () => deps.bus.ping() },
    publicBaseUrl: baseUrl,
    securitySchemes: { bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' } },
  });
  await app.register(rateLimit, { global: false, errorResponseBuilder: rateLimitError as never });
  await registerManagementRoutes(app, { ctx, verifyToken: deps.verifyToken });
  await registerPublicRoutes(app, { ctx, rateLimit: { max: deps.config.WALLET_RATE_LIMIT_MAX, timeWindow: deps.config.WALLET_RATE_LIMIT_WINDOW_MS } });
  const stopResponder = serveVerificationTemplateGet({ bus: deps.bus, db: ctx.db, logger: deps.logger });
  app.addHook('onClose', async () => stopResponder());
  await app.ready();
  return app;
}
