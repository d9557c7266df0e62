// Runs the pinned pnpm through npx: Corepack cannot fetch pnpm on our machines
// (its signature check fails against the registry mirror), npx can.
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

export const PNPM_VERSION = '10.34.8';

/** Runs pnpm with the given arguments in the repository root; exits on failure. */
export function runPnpm(args, options = {}) {
  const root = fileURLToPath(new URL('..', import.meta.url));
  const result = spawnSync('npx', ['-y', `pnpm@${PNPM_VERSION}`, ...args], {
    cwd: root,
    stdio: 'inherit',
    env: { ...process.env, npm_config_update_notifier: 'false' },
    ...options,
  });
  if (result.status !== 0) {
    process.exit(result.status ?? 1);
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  runPnpm(process.argv.slice(2));
}
