// The service's process: config from the environment, start, signals (one shared runServiceMain).
import { runServiceMain } from '@tessera/service-kit';
import { statusListService } from './server.js';

await runServiceMain([statusListService]);
