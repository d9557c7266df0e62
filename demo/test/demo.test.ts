import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '@tessera/service-kit/testing';

const root = fileURLToPath(new URL('../..', import.meta.url));

// What a newcomer does: run the services as `npm start` does (one process, embedded
// PGlite, in-process transport), then `npm run demo` against them.
describe('npm start + npm run demo', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'tessera-demo-'));
  let services: ChildProcess;
  let ports: number[];
  let output = '';

  beforeAll(async () => {
    ports = [await freePort(), await freePort(), await freePort()];
    const [verifier, ecosystem, statusList] = ports;
    const env = { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', DATA_DIR: dataDir, VERIFIER_PORT: String(verifier), ECOSYSTEM_PORT: String(ecosystem), STATUS_LIST_PORT: String(statusList) };
    services = spawn(process.execPath, [join(root, 'scripts/run-services.mjs')], { env, stdio: ['ignore', 'pipe', 'pipe'] });
    services.stdout!.on('data', (chunk) => (output += chunk));
    services.stderr!.on('data', (chunk) => (output += chunk));
    const deadline = Date.now() + 90000;
    while (!output.includes('Ctrl-C stops everything')) {
      if (Date.now() > deadline || services.exitCode !== null) throw new Error(`services did not start:\n${output}`);
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  }, 120000);

  afterAll(async () => {
    if (services && services.exitCode === null) {
      const exited = new Promise((resolve) => services.once('exit', resolve));
      services.kill('SIGINT');
      await exited;
    }
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('prints the base URLs, docs and the token command', () => {
    for (const port of ports) expect(output).toContain(`http://localhost:${port}/docs`);
    expect(output).toContain('npm run token --');
  });

  it('runs the story: verified, trusted through the registry, refused while suspended, rejected as revoked', async () => {
    const [verifier, ecosystem, statusList] = ports;
    const demo = spawn(process.execPath, [join(root, 'demo/dist/main.js')], {
      env: {
        PATH: process.env.PATH ?? '',
        NO_COLOR: '1',
        DATA_DIR: dataDir,
        DEMO_VERIFIER_URL: `http://localhost:${verifier}`,
        DEMO_ECOSYSTEM_URL: `http://localhost:${ecosystem}`,
        DEMO_STATUS_LIST_URL: `http://localhost:${statusList}`,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let demoOutput = '';
    demo.stdout.on('data', (chunk) => (demoOutput += chunk));
    demo.stderr.on('data', (chunk) => (demoOutput += chunk));
    const code = await new Promise((resolve) => demo.once('exit', resolve));
    expect(demoOutput, demoOutput).toContain('session: ResponseVerified');
    expect(demoOutput).toContain('"age_over_18": true');
    expect(demoOutput).toMatch(/trusted through: Demo Issuing Authority \([0-9a-f-]{36}\), trust list sequence \d+/);
    expect(demoOutput).toContain('session: Error ISSUER_NOT_TRUSTED');
    expect(demoOutput).toContain('session: Error CREDENTIAL_REVOKED');
    expect(code).toBe(0);
  }, 120000);

  it('stops cleanly on Ctrl-C', async () => {
    const exited = new Promise<number | null>((resolve) => services.once('exit', resolve));
    services.kill('SIGINT');
    expect(await exited).toBe(0);
  }, 30000);
});
