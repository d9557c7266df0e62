// The real status list service, started the way its production entry point starts it
// (services/status-list/dist/main.js is `runServiceMain([statusListService])`: config
// from the environment, the shutdown handlers), in production mode on an ephemeral
// port, migrating its own database at start. Prints `LISTENING <url>` for
// bench/lib/child-server.mjs; SIGTERM closes it as it closes in production.
Object.assign(process.env, {
  NODE_ENV: 'production',
  PORT: '0',
  HOST: '127.0.0.1',
  MIGRATE_ON_START: 'true',
  // An ephemeral metrics port unless the benchmark names one (it scrapes it).
  METRICS_PORT: process.env.METRICS_PORT ?? '0',
  CACHE_MAX_ENTRIES: process.env.CACHE_MAX_ENTRIES ?? '200000',
});
// Imported after the environment is set, as main.js reads it when it starts.
const { runServiceMain } = await import('@tessera/service-kit');
const { statusListService } = await import('../../services/status-list/dist/server.js');

const [service] = await runServiceMain([statusListService]);
process.stdout.write(`LISTENING ${service.url}\n`);
