import { createLogger, installShutdownHandlers, loadConfigOrExit } from '@tessera/service-kit';
import { loadVerifierConfig, SERVICE_NAME } from './config.js';
import { KeyEncryptionKeyMismatchError } from './keys/key-check.js';
import { startVerifier } from './server.js';
import { TrustedIssuersFileError } from './trust/load-trusted-issuers.js';

const config = loadConfigOrExit(() => loadVerifierConfig(), SERVICE_NAME);
const logger = createLogger({ name: SERVICE_NAME, level: config.LOG_LEVEL });
try {
  const service = await startVerifier(config, logger);
  installShutdownHandlers({ app: service.app, logger, graceMs: config.SHUTDOWN_GRACE_MS, resources: [{ name: 'service', close: service.close }] });
  logger.info({ url: service.url }, `verifier service listening on ${service.url} (docs: ${service.url}/docs)`);
} catch (error) {
  if (error instanceof KeyEncryptionKeyMismatchError || error instanceof TrustedIssuersFileError) {
    process.stderr.write(`${SERVICE_NAME}: ${error.message}\n`);
    logger.fatal(error.message);
  } else {
    logger.fatal({ err: error }, 'verifier service failed to start');
  }
  process.exit(1);
}
