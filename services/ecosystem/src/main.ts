// The service's process: config from the environment, start, signals (one shared runServiceMain).
import { runServiceMain } from '@tessera/service-kit';
import { ecosystemService } from './server.js';

await runServiceMain([ecosystemService]);
