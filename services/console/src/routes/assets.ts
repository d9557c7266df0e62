import { createRequire } from 'node:module';
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import fastifyStatic from '@fastify/static';
import type { App } from '@tessera/service-kit';

/** The console's files: its style sheet (public/), its compiled browser scripts (dist/browser/), and Chart.js. */
const PUBLIC_DIR = fileURLToPath(new URL('../../public/', import.meta.url));
const SCRIPTS_DIR = fileURLToPath(new URL('../browser/', import.meta.url));
const CHART_JS_DIR = dirname(createRequire(import.meta.url).resolve('chart.js'));

export async function registerAssetRoutes(app: App): Promise<void> {
  // Validated by ETag on each use, so a new release's files are picked up at once.
  const common = { cacheControl: true, maxAge: 0, etag: true, index: false, list: false, schemaHide: true } as const;
  await app.register(fastifyStatic, { ...common, root: PUBLIC_DIR, prefix: '/assets/' });
  await app.register(fastifyStatic, {
    ...common,
    root: SCRIPTS_DIR,
    prefix: '/assets/scripts/',
    decorateReply: false,
    allowedPath: (path) => path.endsWith('.js'),
  });
  await app.register(fastifyStatic, {
    ...common,
    root: CHART_JS_DIR,
    prefix: '/assets/vendor/',
    decorateReply: false,
    allowedPath: (path) => path === '/chart.umd.min.js',
  });
}
