import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';

// Configuration errors all at once: one start of the built process names every
// bad or missing variable, a missing secret together with a malformed PORT
// included (the cross-variable rules run even when a variable failed its schema).
const MAIN = fileURLToPath(new URL('../../dist/main.js', import.meta.url));
const dataDir = mkdtempSync(join(tmpdir(), 'verifier-config-'));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

function start(env: Record<string, string>) {
  const result = spawnSync(process.execPath, [MAIN], {
    env: { PATH: process.env.PATH, DATA_DIR: dataDir, NODE_ENV: 'production', ...env },
    encoding: 'utf8',
    timeout: 20000,
  });
  const lines = result.stderr.trim().split('\n');
  return {
    status: result.status,
    header: lines[0],
    variables: lines
      .slice(1)
      .map((line) => line.trim().split(':')[0])
      .sort(),
    stderr: result.stderr,
  };
}

const OIDC = {
  OIDC_ISSUER: 'https://idp.tessera.test/realms/tessera',
  OIDC_AUDIENCE: 'tessera',
  OIDC_JWKS_URI: 'https://idp.tessera.test/jwks',
};

describe('verifier: every configuration problem in one start', () => {
  it('a missing KEY_ENCRYPTION_KEY and PORT=abc are both reported, and nothing starts', () => {
    const run = start({ ...OIDC, PUBLIC_BASE_URL: 'https://verifier.tessera.test', PORT: 'abc' });
    expect(run.status).toBe(1);
    expect(run.header).toBe('verifier: invalid configuration');
    expect(run.variables).toEqual(['KEY_ENCRYPTION_KEY', 'PORT']);
  });

  it('a missing PUBLIC_BASE_URL and KEY_ENCRYPTION_KEY, missing OIDC settings and PORT=abc are all reported', () => {
    const run = start({ PORT: 'abc' });
    expect(run.status).toBe(1);
    expect(run.variables).toEqual(
      [
        'KEY_ENCRYPTION_KEY',
        'OIDC_ISSUER, OIDC_AUDIENCE, OIDC_JWKS_URI or OIDC_JWKS_FILE',
        'PORT',
        'PUBLIC_BASE_URL',
      ].sort(),
    );
  });

  it('a bad value is named, never printed', () => {
    const secret = 'not-a-32-byte-key-but-secret-0123456789abcdef';
    const run = start({
      ...OIDC,
      PUBLIC_BASE_URL: 'https://verifier.tessera.test',
      KEY_ENCRYPTION_KEY: secret,
      PORT: 'abc',
      STATUS_LIST_INTERNAL_HOSTS: 'bad host!',
    });
    expect(run.status).toBe(1);
    expect(run.variables).toEqual(['KEY_ENCRYPTION_KEY', 'PORT', 'STATUS_LIST_INTERNAL_HOSTS']);
    expect(run.stderr).not.toContain(secret);
  });
});
