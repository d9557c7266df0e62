// Runs Tessera's services on localhost in development mode.
//
// Without NATS_URL the services reach each other through the in-process transport,
// which only connects services inside one Node.js process: so all of them run here,
// each with its own Fastify instance, port and database (PGlite under ./.data/
// unless DATABASE_URL is set). With NATS_URL, `--service <name>` runs just one.
import { existsSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { join, resolve } from 'node:path';

const root = fileURLToPath(new URL('..', import.meta.url));
const dataDir = resolve(process.env.DATA_DIR ?? join(root, '.data'));

/** Each service: its folder, default port and the name of its ServiceDefinition export in server.js. */
const SERVICES = [
  { name: 'verifier', port: 3001, portVar: 'VERIFIER_PORT', definition: 'verifierService' },
  { name: 'ecosystem', port: 3002, portVar: 'ECOSYSTEM_PORT', definition: 'ecosystemService' },
  { name: 'status-list', port: 3003, portVar: 'STATUS_LIST_PORT', definition: 'statusListService' },
  // The console calls the others over HTTP (their public APIs), so it can run anywhere; here beside them.
  { name: 'console', port: 3004, portVar: 'CONSOLE_PORT', definition: 'consoleService' },
];

function parseArgs(argv) {
  const only = [];
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === '--service') only.push(argv[++i]);
    else if (argv[i]?.startsWith('--service=')) only.push(argv[i].slice('--service='.length));
  }
  return only;
}

const only = parseArgs(process.argv.slice(2));
if (only.length > 0 && !process.env.NATS_URL) {
  console.error('--service needs NATS_URL: without NATS the services can only reach each other inside one process.');
  process.exit(1);
}
const unknown = only.filter((name) => !SERVICES.some((s) => s.name === name));
if (unknown.length > 0) {
  console.error(`unknown service(s): ${unknown.join(', ')} (known: ${SERVICES.map((s) => s.name).join(', ')})`);
  process.exit(1);
}

const { runServiceMain } = await import(pathToFileURL(join(root, 'packages/service-kit/dist/index.js')).href);
const selected = SERVICES.filter(
  (s) => (only.length === 0 || only.includes(s.name)) && existsSync(join(root, 'services', s.name, 'dist/server.js')),
);
const definitions = [];
for (const service of selected) {
  const server = await import(pathToFileURL(join(root, 'services', service.name, 'dist/server.js')).href);
  definitions.push(server[service.definition]);
}

/** The port a service listens on here (its variable, else its default). */
const portOf = (name) => {
  const service = SERVICES.find((s) => s.name === name);
  return process.env[service.portVar] ?? String(service.port);
};

/** A service's environment in development mode: its port, base URL and the shared data directory. */
function envFor(definition) {
  const service = SERVICES.find((s) => s.name === definition.name);
  const port = portOf(service.name);
  return {
    // The console reaches the services at the ports they listen on here (unless told otherwise).
    ...(service.name === 'console'
      ? {
          VERIFIER_URL: `http://localhost:${portOf('verifier')}`,
          ECOSYSTEM_URL: `http://localhost:${portOf('ecosystem')}`,
          STATUS_LIST_URL: `http://localhost:${portOf('status-list')}`,
        }
      : {}),
    ...process.env,
    NODE_ENV: process.env.NODE_ENV ?? 'development',
    DATA_DIR: dataDir,
    PORT: port,
    HOST: process.env.HOST ?? '127.0.0.1',
    PUBLIC_BASE_URL:
      process.env[`${service.portVar.replace('_PORT', '')}_PUBLIC_BASE_URL`] ?? `http://localhost:${port}`,
    LOG_LEVEL: process.env.LOG_LEVEL ?? 'warn',
  };
}

// Reports every bad variable of every service at once, closes all on Ctrl-C / SIGTERM.
const running = await runServiceMain(definitions, { envFor });

const line = '─'.repeat(72);
console.log(`\n${line}\nTessera is running (development mode; data in ${dataDir})\n`);
for (const service of running) {
  if (service.name === 'console') continue;
  console.log(`  ${service.name.padEnd(12)} ${service.url}    docs: ${service.url}/docs`);
}
const consoleService = running.find((s) => s.name === 'console');
if (consoleService)
  console.log(
    `\n  console      ${consoleService.url}    (development sign-in: say who you are and which roles you hold)`,
  );
const statusList = running.find((s) => s.name === 'status-list');
if (statusList?.devApiKey) console.log(`\n  status list API key (x-api-key): ${statusList.devApiKey}`);
console.log(`\n  access token for the management APIs:`);
console.log(`    npm run token -- --sub alice --email alice@example.com --org <orgId>:owner [--platform-admin]`);
const verifier = running.find((s) => s.name === 'verifier');
if (verifier) {
  console.log(
    `\n  reference relying-party page (demo/web): npm run demo -- --web, then http://localhost:${process.env.WEB_DEMO_PORT ?? 3010}/`,
  );
}
console.log(
  `\n  transport: ${process.env.NATS_URL ? `NATS at ${process.env.NATS_URL}` : 'in-process (set NATS_URL to use NATS)'}; database: ${process.env.DATABASE_URL ? 'PostgreSQL (DATABASE_URL)' : 'embedded PGlite'}`,
);
console.log(`  Ctrl-C stops everything.\n${line}\n`);
