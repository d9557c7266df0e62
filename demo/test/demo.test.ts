import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServicesProcess, type ServicesProcess } from './support/services-process.js';

const root = fileURLToPath(new URL('../..', import.meta.url));

// What a newcomer does: run the services as `npm start` does (one process, embedded
// PGlite, in-process transport), then `npm run demo` against them.
describe('npm start + npm run demo', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'tessera-demo-'));
  let services: ServicesProcess;
  let ports: number[];
  let output = '';

  beforeAll(async () => {
    services = await startServicesProcess(dataDir);
    ports = services.ports;
    output = services.output();
  }, 120000);

  afterAll(async () => {
    await services?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('prints the base URLs, docs and the token command', () => {
    for (const port of ports) expect(output).toContain(`http://localhost:${port}/docs`);
    // The console comes up with the rest.
    expect(output).toContain(`console      ${services.consoleUrl}`);
    expect(output).toContain('npm run token --');
    expect(output).toContain(
      'reference relying-party page (demo/web): npm run demo -- --web, then http://localhost:3010/',
    );
  });

  it('runs the story: verified, trusted through the registry, refused while suspended, rejected as revoked; an mDL through a CWT list', async () => {
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
    // The mDL: its status published as a CWT list, read by the verifier in that form, then revoked in it.
    expect(demoOutput).toMatch(/status list \(CWT\): http:\/\/localhost:\d+\/status-lists\/[0-9a-f-]{36}/);
    expect(demoOutput).toContain('mDL session: ResponseVerified');
    expect(demoOutput).toContain('"age_over_18": true');
    expect(demoOutput).toContain('mDL status checked: entry 5 VALID in a cwt status list');
    expect(demoOutput).toContain('mDL session: Error CREDENTIAL_REVOKED');
    expect(code).toBe(0);
  }, 120000);

  it('stops cleanly on Ctrl-C', async () => {
    expect(await services.stop()).toBe(0);
  }, 30000);
});
