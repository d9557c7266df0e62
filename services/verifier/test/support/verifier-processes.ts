import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createTestIdentityProvider, freePort, waitFor, type TestIdentityProvider } from '@tessera/service-kit/testing';
import { generateKeyEncryptionKey } from '../../src/crypto/key-encryption.js';
import { VERIFIER_MAIN } from './service-process.js';

/** One verifier process, as production runs it (`dist/main.js`, NODE_ENV=production). */
export interface VerifierProcess {
  /** `http://127.0.0.1:<port>` */
  base: string;
  port: number;
  /** `http://127.0.0.1:<METRICS_PORT>/metrics` */
  metricsUrl: string;
  /** What the process wrote to stderr so far. */
  stderr(): string;
}

/** Replicas of the built verifier on one database, trusting one test identity provider. */
export interface VerifierReplicas {
  replicas: VerifierProcess[];
  idp: TestIdentityProvider;
  /** SIGTERM to each, then SIGKILL after 10 s; removes the temporary directory. */
  stop(): Promise<void>;
}

/**
 * Starts `count` verifier processes on `databaseUrl` (the first one migrates; the others
 * start once it is ready), each on a free port of 127.0.0.1 with the in-process bus (no
 * NATS_URL, so they cannot answer other test files' requests), sharing KEY_ENCRYPTION_KEY
 * and trusting a test identity provider through a JWKS file. `env` adds to or overrides
 * the production settings.
 */
export async function startVerifierReplicas(options: {
  databaseUrl: string;
  count: number;
  env?: Record<string, string>;
}): Promise<VerifierReplicas> {
  const dir = mkdtempSync(join(tmpdir(), 'tessera-verifier-replicas-'));
  const idp = await createTestIdentityProvider();
  const jwksFile = join(dir, 'jwks.json');
  writeFileSync(jwksFile, JSON.stringify(idp.jwks));
  const keyEncryptionKey = generateKeyEncryptionKey();
  const children: ChildProcess[] = [];
  const replicas: VerifierProcess[] = [];
  const stop = async () => {
    await Promise.all(
      children.map(
        (child) =>
          new Promise<void>((resolve) => {
            if (child.exitCode !== null || child.signalCode !== null) return resolve();
            const kill = setTimeout(() => child.kill('SIGKILL'), 10_000);
            child.once('exit', () => {
              clearTimeout(kill);
              resolve();
            });
            child.kill('SIGTERM');
          }),
      ),
    );
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    for (let index = 0; index < options.count; index++) {
      const port = await freePort();
      const metricsPort = await freePort();
      const child = spawn(process.execPath, [VERIFIER_MAIN], {
        env: {
          PATH: process.env.PATH ?? '',
          NODE_ENV: 'production',
          PORT: String(port),
          METRICS_PORT: String(metricsPort),
          HOST: '127.0.0.1',
          DATABASE_URL: options.databaseUrl,
          MIGRATE_ON_START: index === 0 ? 'true' : 'false',
          DATA_DIR: join(dir, `replica-${index}`),
          PUBLIC_BASE_URL: 'https://verifier.replicas.test',
          KEY_ENCRYPTION_KEY: keyEncryptionKey,
          OIDC_ISSUER: idp.issuer,
          OIDC_AUDIENCE: idp.audience,
          OIDC_JWKS_FILE: jwksFile,
          LOG_LEVEL: 'warn',
          ...options.env,
        },
        stdio: ['ignore', 'ignore', 'pipe'],
      });
      children.push(child);
      let stderr = '';
      child.stderr!.on('data', (chunk) => (stderr += String(chunk)));
      const replica = {
        base: `http://127.0.0.1:${port}`,
        port,
        metricsUrl: `http://127.0.0.1:${metricsPort}/metrics`,
        stderr: () => stderr,
      };
      await waitFor(
        async () => (await fetch(`${replica.base}/health/ready`)).ok,
        30_000,
        `verifier replica ${index} to be ready (${stderr})`,
      );
      replicas.push(replica);
    }
  } catch (error) {
    await stop();
    throw error;
  }
  return { replicas, idp, stop };
}
