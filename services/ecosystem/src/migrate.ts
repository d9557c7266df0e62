// Applies the committed migrations and exits: the Kubernetes migration Job's entry point.
import { createLogger, loadConfigOrExit, runMigrationsAndExit } from '@tessera/service-kit';
import { loadEcosystemConfig, SERVICE_NAME } from './config.js';
import { MIGRATIONS_FOLDER } from './db/migrations-folder.js';

// The migration Job verifies no tokens and signs no lists: OIDC settings and the
// trust-list CA it lacks are filled with placeholders (never read by migrations).
const notNeeded = 'not-needed-to-migrate';
const env = process.env;
const caGiven = !!(
  env.TRUST_LIST_CA_CERT_PEM ||
  env.TRUST_LIST_CA_CERT_PEM_FILE ||
  env.TRUST_LIST_CA_KEY_PEM ||
  env.TRUST_LIST_CA_KEY_PEM_FILE
);
const config = loadConfigOrExit(
  () =>
    loadEcosystemConfig({
      OIDC_ISSUER: notNeeded,
      OIDC_AUDIENCE: notNeeded,
      OIDC_JWKS_FILE: notNeeded,
      ...(caGiven ? {} : { TRUST_LIST_CA_CERT_PEM: notNeeded, TRUST_LIST_CA_KEY_PEM: notNeeded }),
      ...env,
    }),
  SERVICE_NAME,
);
await runMigrationsAndExit({
  service: SERVICE_NAME,
  config,
  migrationsFolder: MIGRATIONS_FOLDER,
  logger: createLogger({ name: `${SERVICE_NAME}-migrate`, level: config.LOG_LEVEL }),
});
