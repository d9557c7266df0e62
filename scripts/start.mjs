// `npm start`: install, build, then run the services (see scripts/run-services.mjs).
// Arguments after `--` are passed on, e.g. `npm start -- --service verifier`.
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { runPnpm } from './pnpm.mjs';

runPnpm(['install', '--reporter=append-only', '--prefer-offline']);
runPnpm(['exec', 'turbo', 'run', 'build', '--output-logs=errors-only']);

const runner = fileURLToPath(new URL('./run-services.mjs', import.meta.url));
const child = spawn(process.execPath, [runner, ...process.argv.slice(2)], { stdio: 'inherit' });
// Ctrl-C reaches the child through the terminal's process group; forward SIGTERM ourselves.
process.on('SIGTERM', () => child.kill('SIGTERM'));
process.on('SIGINT', () => {});
child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
