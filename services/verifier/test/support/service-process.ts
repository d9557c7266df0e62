import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

/** The built service (`npm run build`): tests of the process itself run it as production does. */
export const VERIFIER_MAIN = fileURLToPath(new URL('../../dist/main.js', import.meta.url));

/** Runs the service with exactly `env` until it exits (a start that must fail), and returns its exit code and stderr. */
export function runUntilExit(
  env: Record<string, string | undefined>,
): Promise<{ code: number | null; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [VERIFIER_MAIN], { env, stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (chunk) => (stderr += String(chunk)));
    child.on('exit', (code) => resolve({ code, stderr }));
  });
}
