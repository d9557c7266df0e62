import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';

// Configuration errors all at once: missing OIDC settings and a missing trust-list CA
// (cross-variable rules: required outside development) are reported together with a
// malformed PORT, in the same start of the built process.
const MAIN = fileURLToPath(new URL('../../dist/main.js', import.meta.url));
const dataDir = mkdtempSync(join(tmpdir(), 'ecosystem-config-'));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

function start(env: Record<string, string>) {
  const result = spawnSync(process.execPath, [MAIN], {
    env: { PATH: process.env.PATH, DATA_DIR: dataDir, NODE_ENV: 'production', ...env },
    encoding: 'utf8',
    timeout: 20000,
  });
  return {
    status: result.status,
    stderr: result.stderr,
    variables: result.stderr
      .trim()
      .split('\n')
      .slice(1)
      .map((line) => line.trim().split(':')[0])
      .sort(),
  };
}

describe('ecosystem: every configuration problem in one start', () => {
  it('a missing OIDC_AUDIENCE, PORT=abc and the missing trust-list CA are all reported, and the process exits 1', () => {
    const run = start({
      OIDC_ISSUER: 'https://idp.tessera.test/realms/tessera',
      OIDC_JWKS_URI: 'https://idp.tessera.test/jwks',
      PORT: 'abc',
    });
    expect(run.status).toBe(1);
    expect(run.stderr).toContain('invalid configuration');
    expect(run.variables).toEqual(['OIDC_AUDIENCE', 'PORT', 'TRUST_LIST_CA_CERT_PEM, TRUST_LIST_CA_KEY_PEM']);
  });

  it('with every OIDC setting missing, all of them, PORT and the trust-list CA are reported', () => {
    const run = start({ PORT: 'abc' });
    expect(run.status).toBe(1);
    expect(run.variables).toEqual([
      'OIDC_ISSUER, OIDC_AUDIENCE, OIDC_JWKS_URI or OIDC_JWKS_FILE',
      'PORT',
      'TRUST_LIST_CA_CERT_PEM, TRUST_LIST_CA_KEY_PEM',
    ]);
  });
});
