// The real status list service, configured as in production.
import { createLogger } from '@tessera/service-kit';
import { loadStatusListConfig } from '../../services/status-list/dist/config.js';
import { startStatusList } from '../../services/status-list/dist/server.js';

const config = loadStatusListConfig({ ...process.env, NODE_ENV: 'production', PORT: '0', HOST: '127.0.0.1', MIGRATE_ON_START: 'true', CACHE_MAX_ENTRIES: process.env.CACHE_MAX_ENTRIES ?? '200000' });
const service = await startStatusList(config, createLogger({ name: 'status-list', level: config.LOG_LEVEL }));
process.stdout.write(`LISTENING ${service.url}\n`);
process.on('SIGTERM', () => service.close().then(() => process.exit(0)));
