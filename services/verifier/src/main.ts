// The service's process: config from the environment, start, signals (one shared runServiceMain).
import { runServiceMain } from '@tessera/service-kit';
import { verifierService } from './server.js';

await runServiceMain([verifierService]);
