import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect } from 'vitest';
import { freePort, missingServer, waitFor } from '@tessera/service-kit/testing';
import { databaseTest as test } from '../support/fixtures.js';
import { listUri, newListId } from '../support/harness.js';
import { signStatusListToken } from '../support/status-list-token.js';
import { storedStatusLists } from '../support/stored-lists.js';

const MAIN = fileURLToPath(new URL('../../dist/main.js', import.meta.url));
const API_KEY = 'sigterm-test-key-0123456789';

// The service process and the test share the database: needs a PostgreSQL server.
describe.skipIf(missingServer('postgres', 'SIGTERM under load'))('SIGTERM under load', () => {
  test('finishes in-flight requests, exits 0 within the grace period, and loses no acknowledged write', async ({
    testDb,
  }) => {
    const port = await freePort();
    const child = spawn(process.execPath, [MAIN], {
      env: {
        PATH: process.env.PATH ?? '',
        NODE_ENV: 'production',
        API_KEY,
        PORT: String(port),
        HOST: '127.0.0.1',
        METRICS_PORT: '0',
        DATABASE_URL: testDb.url!,
        LOG_LEVEL: 'warn',
        SHUTDOWN_GRACE_MS: '5000',
      },
      stdio: 'ignore',
    });
    const exited = new Promise<{ code: number | null; at: number }>((resolve) =>
      child.on('exit', (code) => resolve({ code, at: Date.now() })),
    );
    const base = `http://127.0.0.1:${port}`;
    await waitFor(async () => (await fetch(`${base}/health/ready`)).ok);

    const tokens = await Promise.all(
      Array.from({ length: 300 }, async () => {
        const id = newListId();
        return { id, jwt: await signStatusListToken({ sub: listUri(id) }) };
      }),
    );
    const acknowledged: string[] = [];
    let signalledAt = 0;
    let completedAfterSignal = 0;
    let next = 0;
    const worker = async () => {
      while (next < tokens.length) {
        const { id, jwt } = tokens[next++]!;
        try {
          const response = await fetch(`${base}/status-lists`, {
            method: 'POST',
            headers: { 'content-type': 'application/json', 'x-api-key': API_KEY },
            body: JSON.stringify({ id, jwt }),
          });
          if (response.status === 201) {
            acknowledged.push(id);
            if (signalledAt && Date.now() >= signalledAt) completedAfterSignal += 1;
          }
          if (acknowledged.length === 60 && !signalledAt) {
            signalledAt = Date.now();
            child.kill('SIGTERM');
          }
        } catch {
          // refused or reset after the server stopped accepting: not acknowledged
        }
      }
    };
    await Promise.all(Array.from({ length: 16 }, worker));
    const { code, at } = await exited;

    expect(code).toBe(0);
    expect(at - signalledAt).toBeLessThan(5000);
    expect(completedAfterSignal).toBeGreaterThan(0);
    const stored = new Set((await storedStatusLists(testDb.database)).map((row) => row.id));
    expect(acknowledged.filter((id) => !stored.has(id))).toEqual([]);
  }, 60000);
});
