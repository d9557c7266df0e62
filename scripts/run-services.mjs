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

/** Each service: its folder, default port, and how to load its config and start it. */
const SERVICES = [
  { name: 'verifier', port: 3001, portVar: 'VERIFIER_PORT', load: 'loadVerifierConfig', start: 'startVerifier' },
  { name: 'ecosystem', port: 3002, portVar: 'ECOSYSTEM_PORT', load: 'loadEcosystemConfig', start: 'startEcosystem' },
  { name: 'status-list', port: 3003, portVar: 'STATUS_LIST_PORT', load: 'loadStatusListConfig', start: 'startStatusList' },
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

const { createLogger, ConfigError } = await import(pathToFileURL(join(root, 'packages/service-kit/dist/index.js')).href);
const selected = SERVICES.filter((s) => (only.length === 0 || only.includes(s.name)) && existsSync(join(root, 'services', s.name, 'dist/server.js')));
const running = [];

async function startService(service) {
  const port = process.env[service.portVar] ?? String(service.port);
  const env = {
    ...process.env,
    NODE_ENV: process.env.NODE_ENV ?? 'development',
    DATA_DIR: dataDir,
    PORT: port,
    HOST: process.env.HOST ?? '127.0.0.1',
    PUBLIC_BASE_URL: process.env[`${service.portVar.replace('_PORT', '')}_PUBLIC_BASE_URL`] ?? `http://localhost:${port}`,
    LOG_LEVEL: process.env.LOG_LEVEL ?? 'warn',
  };
  const config = await import(pathToFileURL(join(root, 'services', service.name, 'dist/config.js')).href);
  const server = await import(pathToFileURL(join(root, 'services', service.name, 'dist/server.js')).href);
  const loaded = config[service.load](env);
  const logger = createLogger({ name: service.name, level: loaded.LOG_LEVEL });
  return server[service.start](loaded, logger);
}

let stopping = false;
async function stopAll(code) {
  if (stopping) process.exit(1);
  stopping = true;
  console.log('\nstopping…');
  for (const service of [...running].reverse()) await service.close().catch(() => {});
  process.exit(code);
}
process.on('SIGINT', () => void stopAll(0));
process.on('SIGTERM', () => void stopAll(0));

try {
  for (const service of selected) running.push(await startService(service));
} catch (error) {
  if (error instanceof ConfigError) console.error(`invalid configuration:\n  ${error.problems.join('\n  ')}`);
  else console.error(error);
  await stopAll(1);
}

const line = '─'.repeat(72);
console.log(`\n${line}\nTessera is running (development mode; data in ${dataDir})\n`);
for (const service of running) {
  console.log(`  ${service.name.padEnd(12)} ${service.url}    docs: ${service.url}/docs`);
}
const statusList = running.find((s) => s.name === 'status-list');
if (statusList?.devApiKey) console.log(`\n  status list API key (x-api-key): ${statusList.devApiKey}`);
console.log(`\n  access token for the management APIs:`);
console.log(`    npm run token -- --sub alice --email alice@example.com --org <orgId>:owner [--platform-admin]`);
console.log(`\n  transport: ${process.env.NATS_URL ? `NATS at ${process.env.NATS_URL}` : 'in-process (set NATS_URL to use NATS)'}; database: ${process.env.DATABASE_URL ? 'PostgreSQL (DATABASE_URL)' : 'embedded PGlite'}`);
console.log(`  Ctrl-C stops everything.\n${line}\n`);
