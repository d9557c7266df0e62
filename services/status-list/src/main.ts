import { installShutdownHandlers, loadConfigOrExit, createLogger } from '@tessera/service-kit';
import { loadStatusListConfig, SERVICE_NAME } from './config.js';
import { startStatusList } from './server.js';

const config = loadConfigOrExit(() => loadStatusListConfig(), SERVICE_NAME);
const logger = createLogger({ name: SERVICE_NAME, level: config.LOG_LEVEL });
try {
  const service = await startStatusList(config, logger);
  installShutdownHandlers({ app: service.app, logger, graceMs: config.SHUTDOWN_GRACE_MS, resources: [{ name: 'service', close: service.close }] });
  logger.info({ url: service.url }, `status list service listening on ${service.url} (docs: ${service.url}/docs)`);
} catch (error) {
  logger.fatal({ err: error }, 'status list service failed to start');
  process.exit(1);
}
