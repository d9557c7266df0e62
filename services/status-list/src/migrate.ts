// Applies the committed migrations and exits: the Kubernetes migration Job's entry point.
import { createLogger, loadConfigOrExit, runMigrationsAndExit } from '@tessera/service-kit';
import { loadStatusListConfig, SERVICE_NAME } from './config.js';
import { MIGRATIONS_FOLDER } from './db/migrations-folder.js';

const config = loadConfigOrExit(
  () => loadStatusListConfig({ ...process.env, API_KEY: process.env.API_KEY ?? 'not-needed-to-migrate' }),
  SERVICE_NAME,
);
await runMigrationsAndExit({
  service: SERVICE_NAME,
  config,
  migrationsFolder: MIGRATIONS_FOLDER,
  logger: createLogger({ name: `${SERVICE_NAME}-migrate`, level: config.LOG_LEVEL }),
});
