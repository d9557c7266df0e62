import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect } from 'vitest';
import { createTestIdentityProvider, freePort, missingServer, waitFor } from '@tessera/service-kit/testing';
import { generateKeyEncryptionKey } from '../../src/crypto/key-encryption.js';
import { sdJwtQuery } from '../support/dcql-queries.js';
import { databaseTest, temporaryDirectory } from '../support/fixtures.js';
import { ORG } from '../support/management.js';
import { VERIFIER_MAIN } from '../support/service-process.js';
import { storedSessionIds } from '../support/stored-rows.js';

const GRACE_MS = 5000;

const test = databaseTest.extend('dir', { scope: 'file' }, temporaryDirectory('tessera-verifier-sigterm-'));

// The service process and the test share the database: needs a PostgreSQL server.
// No NATS_URL: the child uses the in-process transport, so its template responder
// cannot answer other test files on the shared NATS server.
describe.skipIf(missingServer('postgres', 'verifier SIGTERM under load'))('verifier: SIGTERM under load', () => {
  test(
    'finishes in-flight requests, exits 0 within the grace period, and loses no acknowledged session',
    { timeout: 60000 },
    async ({ testDb, dir }) => {
      // The process trusts the test identity provider through a JWKS file.
      const idp = await createTestIdentityProvider();
      const jwksFile = join(dir, 'jwks.json');
      writeFileSync(jwksFile, JSON.stringify(idp.jwks));
      const token = await idp.mint({ sub: 'load-user', orgRoles: { [ORG]: ['verifier'] } });
      const port = await freePort();
      const child = spawn(process.execPath, [VERIFIER_MAIN], {
        env: {
          PATH: process.env.PATH ?? '',
          NODE_ENV: 'production',
          PORT: String(port),
          METRICS_PORT: '0',
          HOST: '127.0.0.1',
          DATABASE_URL: testDb.url!,
          PUBLIC_BASE_URL: 'https://verifier.sigterm.test',
          KEY_ENCRYPTION_KEY: generateKeyEncryptionKey(),
          OIDC_ISSUER: idp.issuer,
          OIDC_AUDIENCE: idp.audience,
          OIDC_JWKS_FILE: jwksFile,
          LOG_LEVEL: 'warn',
          SHUTDOWN_GRACE_MS: String(GRACE_MS),
        },
        stdio: ['ignore', 'ignore', 'pipe'],
      });
      let stderr = '';
      child.stderr!.on('data', (chunk) => (stderr += String(chunk)));
      const exited = new Promise<{ code: number | null; at: number }>((resolve) =>
        child.on('exit', (code) => resolve({ code, at: Date.now() })),
      );
      try {
        const base = `http://127.0.0.1:${port}`;
        await waitFor(async () => (await fetch(`${base}/health/ready`)).ok, 20000, `the verifier to start (${stderr})`);
        const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
        const api = `${base}/v1/orgs/${ORG}/oid4vp`;
        expect(
          (await fetch(`${api}/verifier`, { method: 'POST', headers, body: JSON.stringify({ verifierId: 'desk' }) }))
            .status,
        ).toBe(201);
        // Warm the organisation's signing key, so the load is session creation itself.
        expect(
          (
            await fetch(`${api}/presentation?verifierId=desk`, {
              method: 'POST',
              headers,
              body: JSON.stringify({ dcql: sdJwtQuery(), responseMode: 'direct_post' }),
            })
          ).status,
        ).toBe(201);

        const acknowledged: string[] = [];
        let signalledAt = 0;
        let completedAfterSignal = 0;
        let remaining = 400;
        const worker = async () => {
          while (remaining-- > 0) {
            try {
              const responseMode = remaining % 2 ? 'direct_post' : 'direct_post.jwt';
              const response = await fetch(`${api}/presentation?verifierId=desk`, {
                method: 'POST',
                headers,
                body: JSON.stringify({ dcql: sdJwtQuery(), responseMode }),
              });
              if (response.status === 201) {
                acknowledged.push(((await response.json()) as { data: { id: string } }).data.id);
                if (signalledAt) completedAfterSignal += 1;
              }
              if (acknowledged.length === 60 && !signalledAt) {
                signalledAt = Date.now();
                child.kill('SIGTERM');
              }
            } catch {
              // refused or reset once the server stopped accepting: not acknowledged
            }
          }
        };
        await Promise.all(Array.from({ length: 12 }, worker));
        const { code, at } = await exited;

        expect(code, stderr).toBe(0);
        expect(signalledAt).toBeGreaterThan(0);
        expect(at - signalledAt).toBeLessThan(GRACE_MS);
        expect(completedAfterSignal).toBeGreaterThan(0);
        // Durability: what PostgreSQL holds once the process has exited, with no app left to ask.
        const stored = await storedSessionIds(testDb.database, acknowledged);
        expect(stored.sort()).toEqual([...acknowledged].sort());
      } finally {
        if (child.exitCode === null) child.kill('SIGKILL');
      }
    },
  );
});
