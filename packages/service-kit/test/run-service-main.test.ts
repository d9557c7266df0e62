import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const fixture = fileURLToPath(new URL('./fixtures/run-two-services.mjs', import.meta.url));

function run(mode: string, stopWith?: NodeJS.Signals): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [fixture], { env: { PATH: process.env.PATH ?? '', MODE: mode }, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    const collect = (chunk: Buffer) => {
      output += chunk;
      if (stopWith && output.includes('started')) child.kill(stopWith);
    };
    child.stdout.on('data', collect);
    child.stderr.on('data', collect);
    child.once('exit', (code) => resolve({ code, output }));
  });
}

describe('runServiceMain', () => {
  it('reports every bad variable of every service in one start, then exits 1 before starting any', async () => {
    const { code, output } = await run('config');
    expect(code).toBe(1);
    expect(output).toContain('first: invalid configuration');
    expect(output).toContain('PORT: must be an integer');
    expect(output).toContain('second: invalid configuration');
    expect(output).toContain('API_KEY: is required');
    expect(output).toContain('DATABASE_URL: must be a URL');
    expect(output).not.toContain('started');
  });

  it('prints a startup refusal as one line naming the service and exits 1', async () => {
    const { code, output } = await run('refuse');
    expect(code).toBe(1);
    expect(output).toContain('second: KEY_ENCRYPTION_KEY does not open this database');
    expect(output).not.toMatch(/\n\s+at /);
  });

  it('starts every service and closes them all on SIGTERM with exit 0', async () => {
    const { code, output } = await run('ok', 'SIGTERM');
    expect(output).toContain('started first,second');
    expect(code).toBe(0);
  });
});
