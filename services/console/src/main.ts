// The console's process: config from the environment, start, signals (one shared runServiceMain).
import { runServiceMain } from '@tessera/service-kit';
import { consoleService } from './server.js';

await runServiceMain([consoleService]);
