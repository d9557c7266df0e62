import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { freePort } from '@tessera/service-kit/testing';
import type { ServiceUrls } from '../../src/services.js';

const root = fileURLToPath(new URL('../../..', import.meta.url));

/** The services as `npm start` runs them: one process, embedded PGlite, in-process transport. */
export interface ServicesProcess {
  urls: ServiceUrls;
  /** The console, which `npm start` runs beside them. */
  consoleUrl: string;
  ports: number[];
  /** Everything the process printed so far. */
  output(): string;
  /** Ctrl-C, and the exit code. */
  stop(): Promise<number | null>;
  child: ChildProcess;
}

/** `settings`: more environment for the services (e.g. shorter lifetimes a test waits for). */
export async function startServicesProcess(
  dataDir: string,
  settings: Record<string, string> = {},
): Promise<ServicesProcess> {
  const ports = [await freePort(), await freePort(), await freePort()];
  const [verifier, ecosystem, statusList] = ports;
  const consolePort = await freePort();
  const env = {
    PATH: process.env.PATH ?? '',
    HOME: process.env.HOME ?? '',
    DATA_DIR: dataDir,
    VERIFIER_PORT: String(verifier),
    ECOSYSTEM_PORT: String(ecosystem),
    STATUS_LIST_PORT: String(statusList),
    CONSOLE_PORT: String(consolePort),
    // Ephemeral metrics ports: test files that each start the services run side by side.
    METRICS_PORT: '0',
    ...settings,
  };
  const child = spawn(process.execPath, [join(root, 'scripts/run-services.mjs')], {
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout!.on('data', (chunk) => (output += chunk));
  child.stderr!.on('data', (chunk) => (output += chunk));
  const deadline = Date.now() + 90000;
  while (!output.includes('Ctrl-C stops everything')) {
    if (Date.now() > deadline || child.exitCode !== null) {
      child.kill('SIGKILL');
      throw new Error(`services did not start:\n${output}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  return {
    urls: {
      verifier: `http://localhost:${verifier}`,
      ecosystem: `http://localhost:${ecosystem}`,
      statusList: `http://localhost:${statusList}`,
    },
    consoleUrl: `http://localhost:${consolePort}`,
    ports,
    output: () => output,
    child,
    async stop() {
      if (child.exitCode !== null) return child.exitCode;
      const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
      child.kill('SIGINT');
      return exited;
    },
  };
}
