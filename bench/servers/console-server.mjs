// The console, started the way its production entry point starts it
// (services/console/dist/main.js is `runServiceMain([consoleService])`), on an ephemeral
// port. Development mode for its sign-in only: the benchmark signs people in with the
// development key, as no OpenID Connect provider runs here; every other path is the
// production one. Prints `LISTENING <url>` for bench/lib/child-server.mjs.
Object.assign(process.env, {
  NODE_ENV: 'development',
  PORT: '0',
  HOST: '127.0.0.1',
  METRICS_PORT: process.env.METRICS_PORT ?? '0',
  LOG_LEVEL: process.env.LOG_LEVEL ?? 'warn',
});
const { runServiceMain } = await import('@tessera/service-kit');
const { consoleService } = await import('../../services/console/dist/server.js');

const [service] = await runServiceMain([consoleService]);
process.stdout.write(`LISTENING ${service.url}\n`);
