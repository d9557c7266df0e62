import { installShutdownHandlers, loadConfigOrExit, createLogger } from '@tessera/service-kit';
import { loadEcosystemConfig, SERVICE_NAME } from './config.js';
import { startEcosystem } from './server.js';

const config = loadConfigOrExit(() => loadEcosystemConfig(), SERVICE_NAME);
const logger = createLogger({ name: SERVICE_NAME, level: config.LOG_LEVEL });
try {
  const service = await startEcosystem(config, logger);
  installShutdownHandlers({ app: service.app, logger, graceMs: config.SHUTDOWN_GRACE_MS, resources: [{ name: 'service', close: service.close }] });
  logger.info({ url: service.url }, `ecosystem service listening on ${service.url} (docs: ${service.url}/docs)`);
} catch (error) {
  logger.fatal({ err: error }, 'ecosystem service failed to start');
  process.exit(1);
}
