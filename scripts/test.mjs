// `npm test`: install, build, then run every test with vitest from the root.
// Extra arguments are passed to vitest (e.g. `npm test -- services/status-list`).
import { runPnpm } from './pnpm.mjs';

runPnpm(['install', '--reporter=append-only']);
runPnpm(['exec', 'turbo', 'run', 'build', '--output-logs=errors-only']);
runPnpm(['exec', 'vitest', 'run', ...process.argv.slice(2)]);
