import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { freePort, metricSample, scrapeMetrics, waitFor } from '@tessera/service-kit/testing';
import { createTestStatusListDb, listUri, newListId } from '../support/harness.js';
import { signStatusListToken } from '../support/status-list-token.js';

const MAIN = fileURLToPath(new URL('../../dist/main.js', import.meta.url));
const dataDir = mkdtempSync(join(tmpdir(), 'status-list-process-'));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

function runMain(env: Record<string, string>) {
  return spawnSync(process.execPath, [MAIN], {
    env: { PATH: process.env.PATH, DATA_DIR: dataDir, ...env },
    encoding: 'utf8',
    timeout: 20000,
  });
}

describe('status list process', () => {
  it('exits 1 naming a missing API_KEY outside development', () => {
    const result = runMain({ NODE_ENV: 'production' });
    expect(result.status).toBe(1);
    expect(result.stderr).toContain('API_KEY');
  });

  it('exits 1 with one line per bad variable, never printing the secret', () => {
    const secret = 'short-secret';
    const result = runMain({
      NODE_ENV: 'production',
      API_KEY: secret,
      PORT: 'eighty',
      DATABASE_URL: 'mysql://x',
      LOG_LEVEL: 'loud',
    });
    expect(result.status).toBe(1);
    const lines = result.stderr.trim().split('\n').slice(1);
    expect(lines.map((line) => line.trim().split(':')[0]).sort()).toEqual([
      'API_KEY',
      'DATABASE_URL',
      'LOG_LEVEL',
      'PORT',
    ]);
    expect(result.stderr).not.toContain(secret);
  });

  it('starts, serves, and shuts down cleanly on SIGTERM', async () => {
    const testDb = await createTestStatusListDb();
    const port = await freePort();
    const apiKey = 'process-test-key-0123456789';
    const metricsPort = await freePort();
    const env = {
      PATH: process.env.PATH ?? '',
      NODE_ENV: 'production',
      API_KEY: apiKey,
      PORT: String(port),
      HOST: '127.0.0.1',
      METRICS_PORT: String(metricsPort),
      METRICS_HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      LOG_LEVEL: 'info',
      ...(testDb.url ? { DATABASE_URL: testDb.url } : { MIGRATE_ON_START: 'true' }),
    };
    const child = spawn(process.execPath, [MAIN], { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk) => (output += chunk));
    child.stderr.on('data', (chunk) => (output += chunk));
    try {
      const base = `http://127.0.0.1:${port}`;
      await waitFor(async () => (await fetch(`${base}/health/ready`)).ok);
      const id = newListId();
      const jwt = await signStatusListToken({ sub: listUri(id) });
      const created = await fetch(`${base}/status-lists`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-api-key': apiKey },
        body: JSON.stringify({ id, jwt }),
      });
      expect(created.status).toBe(201);
      const read = await fetch(`${base}/status-lists/${id}`);
      expect(await read.text()).toBe(jwt);
      expect(
        (await fetch(`${base}/status-lists/${id}`, { headers: { 'if-none-match': read.headers.get('etag')! } })).status,
      ).toBe(304);
      expect((await fetch(`${base}/status-lists/${newListId()}`)).status).toBe(404);

      // Metrics: on METRICS_PORT only, with the read, the 304 and the write by their labels.
      expect((await fetch(`${base}/metrics`)).status).toBe(404);
      const scrape = await scrapeMetrics(`http://127.0.0.1:${metricsPort}/metrics`);
      const series = (name: string, labels: Record<string, string> = {}) =>
        metricSample(scrape, name, { service: 'status-list', ...labels });
      expect(series('process_resident_memory_bytes')).toBeGreaterThan(0);
      expect(series('tessera_status_list_reads_total', { cache: 'hit', status: '200' })).toBe(1);
      expect(series('tessera_status_list_reads_total', { cache: 'hit', status: '304' })).toBe(1);
      expect(series('tessera_status_list_reads_total', { cache: 'miss', status: '404' })).toBe(1);
      expect(series('tessera_status_list_not_modified_total')).toBe(1);
      expect(series('tessera_status_list_writes_total', { operation: 'create', result: 'ok' })).toBe(1);
      expect(
        series('tessera_http_requests_total', { route: '/status-lists/:list_id', method: 'GET', status_class: '2xx' }),
      ).toBe(1);
      expect(
        series('tessera_http_request_duration_seconds_bucket', {
          route: '/status-lists',
          method: 'POST',
          status_class: '2xx',
          le: '+Inf',
        }),
      ).toBe(1);
      expect(series('tessera_db_pool_connections', { state: 'in_use' })).toBeGreaterThanOrEqual(0);
      expect(series('tessera_db_pool_connections', { state: 'waiting' })).toBe(0);
      expect(series('tessera_db_migrations_applied')).toBeGreaterThan(0);
      expect(scrape).not.toContain(id);
      const exited = new Promise<number | null>((resolve) => child.on('exit', resolve));
      child.kill('SIGTERM');
      expect(await exited).toBe(0);
      expect(output).not.toContain(apiKey);
    } finally {
      child.kill('SIGKILL');
      await testDb.drop();
    }
  }, 30000);
});
