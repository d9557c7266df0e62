// Applies the committed migrations and exits: the Kubernetes migration Job's entry point.
import { createLogger, loadConfigOrExit, runMigrationsAndExit } from '@tessera/service-kit';
import { loadEcosystemConfig, SERVICE_NAME } from './config.js';
import { MIGRATIONS_FOLDER } from './db/migrations-folder.js';

// The migration Job verifies no tokens: OIDC settings it lacks are filled with placeholders.
const notNeeded = 'not-needed-to-migrate';
const config = loadConfigOrExit(
  () => loadEcosystemConfig({ OIDC_ISSUER: notNeeded, OIDC_AUDIENCE: notNeeded, OIDC_JWKS_FILE: notNeeded, ...process.env }),
  SERVICE_NAME,
);
await runMigrationsAndExit({ service: SERVICE_NAME, config, migrationsFolder: MIGRATIONS_FOLDER, logger: createLogger({ name: `${SERVICE_NAME}-migrate`, level: config.LOG_LEVEL }) });
