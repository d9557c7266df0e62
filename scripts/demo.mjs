// `npm run demo`: builds the demo and runs it against the services `npm start` runs
// (start them first, in another terminal). `npm run demo -- --web` serves the
// reference relying-party page instead (demo/web) until Ctrl-C.
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { runPnpm } from './pnpm.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const args = process.argv.slice(2);
const unknown = args.filter((arg) => arg !== '--web');
if (unknown.length > 0) {
  console.error(`unknown argument(s): ${unknown.join(' ')} (known: --web)`);
  process.exit(1);
}
runPnpm(['exec', 'turbo', 'run', 'build', '--filter=@tessera/demo...', '--output-logs=errors-only']);
const entry = args.includes('--web') ? 'demo/dist/web/main.js' : 'demo/dist/main.js';
const result = spawnSync(process.execPath, [entry], { cwd: root, stdio: 'inherit' });
process.exit(result.status ?? 1);
