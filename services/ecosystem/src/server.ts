import {
  connectBusFromConfig,
  createCloser,
  createLogger,
  createTokenVerifier,
  listen,
  openServiceDatabase,
  resolveOidcSettings,
  type InProcessHub,
  type Logger,
  type RunningService,
  type ServiceDefinition,
} from '@tessera/service-kit';
import { buildApp } from './app.js';
import { loadEcosystemConfig, SERVICE_NAME, type EcosystemConfig } from './config.js';
import { schema } from './db/schema.js';
import { MIGRATIONS_FOLDER } from './db/migrations-folder.js';
import { serveIntentResolution } from './nats/intent-resolve-responder.js';
import { CHANGE_CHANNEL, ResolutionCache } from './resolution-cache.js';
import { subscribeOrganisationEvents } from './nats/organisation-subscriber.js';

export type { RunningService };

export interface StartEcosystemOptions {
  /** In-process hub shared with the other services of `npm start` when NATS_URL is unset. */
  hub?: InProcessHub;
}

/**
 * Opens the database (migrating when configured), connects the bus, answers
 * `ecosystem.v1.intent.resolve`, follows organisation events, builds the app and listens.
 * Used by `main.ts` and by the one-process launcher of `npm start`.
 */
export async function startEcosystem(
  config: EcosystemConfig,
  logger: Logger = createLogger({ name: SERVICE_NAME, level: config.LOG_LEVEL }),
  options: StartEcosystemOptions = {},
): Promise<RunningService> {
  const verifyToken = createTokenVerifier(await resolveOidcSettings(config));
  const database = await openServiceDatabase({ service: SERVICE_NAME, config, schema, migrationsFolder: MIGRATIONS_FOLDER, logger });
  const bus = await connectBusFromConfig(config, { name: SERVICE_NAME, logger, ...(options.hub ? { hub: options.hub } : {}) }).catch(async (error: unknown) => {
    await database.close();
    throw error;
  });
  const cache = new ResolutionCache({ ttlMs: config.RESOLVE_CACHE_TTL_MS, maxEntries: 10_000 });
  // Writes notify `ecosystem_changed` at commit (migration 0002); a (re)started LISTEN may have missed some.
  const unlisten = await database.listen(CHANGE_CHANNEL, () => cache.clear(), () => cache.clear());
  serveIntentResolution({ bus, db: database.db, logger, enabled: config.ECOSYSTEM_ENABLED, cache });
  subscribeOrganisationEvents({ bus, db: database.db, logger });
  const app = await buildApp({ config, database, bus, verifyToken, logger });
  const url = await listen(app, config);
  const close = createCloser({
    app,
    logger,
    resources: [
      { name: 'bus', close: () => bus.close() },
      { name: 'change notifications', close: () => unlisten() },
      { name: 'database', close: () => database.close() },
    ],
  });
  return { name: SERVICE_NAME, app, url, close };
}

/** This service as `runServiceMain` runs it (`main.ts`, and `npm start` for all three in one process). */
export const ecosystemService: ServiceDefinition<EcosystemConfig> = { name: SERVICE_NAME, loadConfig: loadEcosystemConfig, start: startEcosystem };
