import {
  createLogger,
  createTokenVerifier,
  resolveOidcSettings,
  type InProcessHub,
  type Logger,
  type RunningService,
  type ServiceDefinition,
  startService,
  systemClock,
} from '@tessera/service-kit';
import { buildApp } from './app.js';
import { openResolutionCache } from './state/change-notifications.js';
import {
  DEFAULT_METRICS_PORT,
  loadEcosystemConfig,
  SERVICE_NAME,
  trustListCaSourceOf,
  type EcosystemConfig,
} from './config.js';
import { MIGRATIONS_FOLDER } from './db/migrations-folder.js';
import { openTrustListCa } from './crypto/trust-list-ca.js';
import { schema } from './db/schema.js';
import type { IntentResolution } from './use-cases/resolve-intent.js';

export type { RunningService };

export interface StartEcosystemOptions {
  /** In-process hub shared with the other services of `npm start` when NATS_URL is unset. */
  hub?: InProcessHub;
}

/**
 * Loads the trust-list CA, opens the database (migrating when configured), connects the bus, starts listening
 * for the database's change notifications (the resolution cache), builds the app (routes,
 * intent resolution responder, organisation events) and listens.
 * Used by `main.ts` and by the one-process launcher of `npm start`.
 */
export async function startEcosystem(
  config: EcosystemConfig,
  logger: Logger = createLogger({ name: SERVICE_NAME, level: config.LOG_LEVEL }),
  options: StartEcosystemOptions = {},
): Promise<RunningService> {
  const verifyToken = createTokenVerifier(await resolveOidcSettings(config));
  // Before anything opens: a bad CA configuration stops the start with one line naming the variable.
  const trustListCa = await openTrustListCa(trustListCaSourceOf(config), systemClock());
  return startService({
    name: SERVICE_NAME,
    config,
    defaultMetricsPort: DEFAULT_METRICS_PORT,
    logger,
    build: async ({ open, openDatabase, connectBus, metrics }) => {
      const database = await openDatabase({
        service: SERVICE_NAME,
        config,
        schema,
        migrationsFolder: MIGRATIONS_FOLDER,
        logger,
      });
      const bus = await connectBus(config, {
        name: SERVICE_NAME,
        logger,
        ...(options.hub ? { hub: options.hub } : {}),
      });
      const cache = await open(
        'change notifications',
        () =>
          openResolutionCache<IntentResolution>({
            database,
            ttlMs: config.RESOLVE_CACHE_TTL_MS,
            clock: systemClock,
          }),
        (c) => c.close(),
      );
      return buildApp({
        config,
        database,
        bus,
        verifyToken,
        logger,
        resolutions: cache.resolutions,
        trustListCa,
        clock: systemClock,
        metrics,
      });
    },
  });
}

/** This service as `runServiceMain` runs it (`main.ts`, and `npm start` for all three in one process). */
export const ecosystemService: ServiceDefinition<EcosystemConfig> = {
  name: SERVICE_NAME,
  loadConfig: loadEcosystemConfig,
  start: startEcosystem,
};
