import {
  createLogger,
  ensureDevSecret,
  type Logger,
  type RunningService,
  type ServiceDefinition,
  startService,
  systemClock,
} from '@tessera/service-kit';
import { buildApp } from './app.js';
import { DEFAULT_METRICS_PORT, loadStatusListConfig, SERVICE_NAME, type StatusListConfig } from './config.js';
import { schema } from './db/schema.js';
import { MIGRATIONS_FOLDER } from './db/migrations-folder.js';

/** The running status list service; in development also the generated API key, for the launcher to print. */
export interface StatusListService extends RunningService {
  devApiKey?: string;
}

/**
 * Opens the database (migrating when configured), builds the app and listens.
 * Used by `main.ts` and by the one-process launcher of `npm start`.
 */
export async function startStatusList(
  config: StatusListConfig,
  logger: Logger = createLogger({ name: SERVICE_NAME, level: config.LOG_LEVEL }),
): Promise<StatusListService> {
  const devApiKey =
    !config.API_KEY && config.NODE_ENV === 'development'
      ? ensureDevSecret(config.DATA_DIR, 'STATUS_LIST_API_KEY')
      : undefined;
  const apiKey = config.API_KEY ?? devApiKey!;
  const service = await startService({
    name: SERVICE_NAME,
    config,
    defaultMetricsPort: DEFAULT_METRICS_PORT,
    logger,
    build: async ({ openDatabase, metrics }) => {
      const database = await openDatabase({
        service: SERVICE_NAME,
        config,
        schema,
        migrationsFolder: MIGRATIONS_FOLDER,
        logger,
      });
      return buildApp({ config, apiKey, database, logger, metrics, clock: systemClock });
    },
  });
  return { ...service, ...(devApiKey ? { devApiKey } : {}) };
}

export { loadStatusListConfig, type StatusListConfig } from './config.js';

/** This service as `runServiceMain` runs it (`main.ts`, and `npm start` for all three in one process). */
export const statusListService: ServiceDefinition<StatusListConfig> = {
  name: SERVICE_NAME,
  loadConfig: loadStatusListConfig,
  start: startStatusList,
};
