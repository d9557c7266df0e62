import compress from '@fastify/compress';
import type { App } from '@tessera/service-kit';
import type { StatusListAppDeps } from '../app.js';
import type { StatusListCache } from '../status-list-cache.js';
import { registerReadRoutes } from './read-status-list.js';
import { registerWriteRoutes } from './write-status-lists.js';

export interface StatusListRouteDeps extends StatusListAppDeps {
  cache: StatusListCache;
}

export async function registerStatusListRoutes(app: App, deps: StatusListRouteDeps): Promise<void> {
  // gzip/deflate/br when the client asks for it; status list tokens compress well.
  await app.register(compress, { global: true, threshold: 1024, customTypes: /^(application\/(statuslist\+jwt|json)|text\/)/ });
  await app.register(async (writes) => registerWriteRoutes(writes as App, deps));
  await app.register(async (reads) => registerReadRoutes(reads as App, deps));
}
