// `npm run demo`: builds the demo and runs it against the services `npm start` runs
// (start them first, in another terminal).
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { runPnpm } from './pnpm.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
runPnpm(['exec', 'turbo', 'run', 'build', '--filter=@tessera/demo...', '--output-logs=errors-only']);
const result = spawnSync(process.execPath, ['demo/dist/main.js'], { cwd: root, stdio: 'inherit' });
process.exit(result.status ?? 1);
