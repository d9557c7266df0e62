// The real ecosystem service, configured as in production (OIDC and NATS from env).
import { createLogger } from '@tessera/service-kit';
import { loadEcosystemConfig } from '../../services/ecosystem/dist/config.js';
import { startEcosystem } from '../../services/ecosystem/dist/server.js';

const config = loadEcosystemConfig({
  ...process.env,
  NODE_ENV: 'production',
  PORT: '0',
  METRICS_PORT: process.env.METRICS_PORT ?? '0',
  HOST: '127.0.0.1',
  MIGRATE_ON_START: 'true',
});
const service = await startEcosystem(config, createLogger({ name: 'ecosystem', level: config.LOG_LEVEL }));
process.stdout.write(`LISTENING ${service.url}\n`);
process.on('SIGTERM', () => service.close().then(() => process.exit(0)));
