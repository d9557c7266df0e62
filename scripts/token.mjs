// `npm run token -- --sub <id> --email <e> [--platform-admin] [--org <orgId>:<role>[,<role>]]...`
// Prints an access token signed by the development key under ./.data/dev-oidc/,
// which the services trust only in development mode.
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { runPnpm } from './pnpm.mjs';

const USAGE =
  'usage: npm run token -- --sub <id> [--email <e>] [--platform-admin] [--org <orgId>:<role>[,<role>]]... [--expires <seconds>]';
const root = fileURLToPath(new URL('..', import.meta.url));
const kit = join(root, 'packages/service-kit/dist/index.js');

const options = { sub: undefined, email: undefined, platformAdmin: false, orgRoles: {}, expiresInSeconds: 3600 };
const argv = process.argv.slice(2);
for (let i = 0; i < argv.length; i++) {
  const arg = argv[i];
  const value = () => {
    const next = argv[++i];
    if (next === undefined) fail(`${arg} needs a value`);
    return next;
  };
  if (arg === '--sub') options.sub = value();
  else if (arg === '--email') options.email = value();
  else if (arg === '--platform-admin') options.platformAdmin = true;
  else if (arg === '--expires') options.expiresInSeconds = Number(value());
  else if (arg === '--org') {
    const [orgId, roles] = value().split(':');
    if (!orgId || !roles) fail('--org takes <orgId>:<role>[,<role>]');
    const allowed = ['owner', 'admin', 'verifier', 'member'];
    const list = roles.split(',');
    const bad = list.filter((role) => !allowed.includes(role));
    if (bad.length > 0) fail(`unknown role(s) ${bad.join(', ')}; roles are ${allowed.join(', ')}`);
    options.orgRoles[orgId] = [...(options.orgRoles[orgId] ?? []), ...list];
  } else if (arg === '--help' || arg === '-h') {
    console.log(USAGE);
    process.exit(0);
  } else fail(`unknown argument ${arg}`);
}
if (!options.sub) fail('--sub is required');
if (!Number.isInteger(options.expiresInSeconds) || options.expiresInSeconds <= 0)
  fail('--expires takes a positive number of seconds');

function fail(message) {
  console.error(`${message}\n${USAGE}`);
  process.exit(2);
}

if (!existsSync(kit))
  runPnpm(['exec', 'turbo', 'run', 'build', '--filter=@tessera/service-kit', '--output-logs=errors-only'], {
    stdio: ['ignore', 'ignore', 'inherit'],
  });
const { mintDevToken } = await import(pathToFileURL(kit).href);
const dataDir = resolve(process.env.DATA_DIR ?? join(root, '.data'));
process.stdout.write(`${await mintDevToken(dataDir, options)}\n`);
