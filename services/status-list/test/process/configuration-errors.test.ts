import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';

// Configuration errors all at once: a missing API_KEY (a cross-variable rule:
// required outside development) is reported together with a malformed PORT, in
// the same start, rather than one per restart.
const MAIN = fileURLToPath(new URL('../../dist/main.js', import.meta.url));
const dataDir = mkdtempSync(join(tmpdir(), 'status-list-config-'));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

describe('status list: every configuration problem in one start', () => {
  it('a missing API_KEY and PORT=abc are both reported, and the process exits 1', () => {
    const result = spawnSync(process.execPath, [MAIN], {
      env: { PATH: process.env.PATH, DATA_DIR: dataDir, NODE_ENV: 'production', PORT: 'abc' },
      encoding: 'utf8',
      timeout: 20000,
    });
    expect(result.status).toBe(1);
    const lines = result.stderr.trim().split('\n');
    expect(lines[0]).toContain('invalid configuration');
    expect(
      lines
        .slice(1)
        .map((line) => line.trim().split(':')[0])
        .sort(),
    ).toEqual(['API_KEY', 'PORT']);
    expect(result.stderr).toMatch(/API_KEY: is required outside development mode/);
  });

  it('with API_KEY given, only PORT is reported (the control)', () => {
    const result = spawnSync(process.execPath, [MAIN], {
      env: {
        PATH: process.env.PATH,
        DATA_DIR: dataDir,
        NODE_ENV: 'production',
        PORT: 'abc',
        API_KEY: 'a-long-enough-api-key-0123',
      },
      encoding: 'utf8',
      timeout: 20000,
    });
    expect(result.status).toBe(1);
    expect(
      result.stderr
        .trim()
        .split('\n')
        .slice(1)
        .map((line) => line.trim().split(':')[0]),
    ).toEqual(['PORT']);
  });

  it('sslmode=require without DATABASE_CA_FILE is refused at start with one line, never quoting the URL', () => {
    const env = {
      PATH: process.env.PATH,
      DATA_DIR: dataDir,
      NODE_ENV: 'production',
      API_KEY: 'a-long-enough-api-key-0123',
      DATABASE_URL: 'postgres://status_list:hunter2-secret@db.internal:5432/status_list?sslmode=require',
    };
    const result = spawnSync(process.execPath, [MAIN], { env, encoding: 'utf8', timeout: 20000 });
    expect(result.status).toBe(1);
    expect(
      result.stderr
        .trim()
        .split('\n')
        .slice(1)
        .map((line) => line.trim()),
    ).toEqual([
      'DATABASE_URL: sslmode=require does not verify the server; set DATABASE_CA_FILE (full verification) or use sslmode=verify-full in production',
    ]);
    expect(result.stderr).not.toContain('hunter2');
  });
});
