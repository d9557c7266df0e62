// Applies the committed migrations and exits: the Kubernetes migration Job's entry point.
import { createLogger, loadConfigOrExit, runMigrationsAndExit } from '@tessera/service-kit';
import { loadVerifierConfig, SERVICE_NAME } from './config.js';
import { MIGRATIONS_FOLDER } from './db/migrations-folder.js';

// Migrating needs the database only: secrets and OIDC settings are not checked here.
const config = loadConfigOrExit(() => loadVerifierConfig({ ...process.env, NODE_ENV: 'development' }), SERVICE_NAME);
await runMigrationsAndExit({
  service: SERVICE_NAME,
  config,
  migrationsFolder: MIGRATIONS_FOLDER,
  logger: createLogger({ name: `${SERVICE_NAME}-migrate`, level: config.LOG_LEVEL }),
});
