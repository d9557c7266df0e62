import { test as base, describe, expect } from 'vitest';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadRegistrarAnchors, RegistrarAnchorsFileError } from '../../src/use-cases/load-registrar-anchors.js';
import { temporaryDirectory } from '../support/fixtures.js';
import { PUBLIC_BASE_URL, TEST_OIDC_ENV } from '../support/harness.js';
import { createTestRegistrar } from '../support/registration-certificates.js';
import { runUntilExit } from '../support/service-process.js';

// The platform's registrar anchors (REGISTRAR_TRUST_ANCHORS_FILE): read once at start, a PEM
// bundle of CA certificates; a bundle that cannot be used stops the start with one line. That
// certificates under them are trusted is in registration-certificate-routes.test.ts.
const test = base.extend('dir', { scope: 'file' }, temporaryDirectory('verifier-registrars-'));

describe('REGISTRAR_TRUST_ANCHORS_FILE', () => {
  test('loads every CA certificate of the bundle; an unreadable, empty or non-CA bundle is an error naming the variable', async ({
    dir,
  }) => {
    const [a, b] = await Promise.all([createTestRegistrar('Registrar A'), createTestRegistrar('Registrar B')]);
    const good = join(dir, 'good.pem');
    writeFileSync(good, `# registrars\n${a.root.certificate.toString('pem')}\n${b.root.certificate.toString('pem')}`);
    expect(loadRegistrarAnchors(good)).toHaveLength(2);
    expect(loadRegistrarAnchors(undefined)).toEqual([]);
    // The registrar's sealing certificate is not a CA.
    const signer = join(dir, 'signer.pem');
    writeFileSync(signer, a.signer.certificate.toString('pem'));
    const empty = join(dir, 'empty.pem');
    writeFileSync(empty, 'nothing here');
    for (const path of [signer, empty, join(dir, 'missing.pem')]) {
      expect(() => loadRegistrarAnchors(path)).toThrow(RegistrarAnchorsFileError);
      expect(() => loadRegistrarAnchors(path)).toThrow(/^REGISTRAR_TRUST_ANCHORS_FILE: /);
    }
  });

  test('the process exits 1 with one clear line when the bundle is bad', async ({ dir }) => {
    const bad = join(dir, 'bad.pem');
    writeFileSync(bad, 'not a certificate');
    const { code, stderr } = await runUntilExit({
      PATH: process.env.PATH,
      NODE_ENV: 'production',
      PUBLIC_BASE_URL,
      KEY_ENCRYPTION_KEY: Buffer.alloc(32, 1).toString('base64'),
      ...TEST_OIDC_ENV,
      REGISTRAR_TRUST_ANCHORS_FILE: bad,
      DATA_DIR: dir,
      PORT: '0',
      METRICS_PORT: '0',
      HOST: '127.0.0.1',
      LOG_LEVEL: 'silent',
    });
    expect(code).toBe(1);
    expect(stderr).toContain(`verifier: REGISTRAR_TRUST_ANCHORS_FILE: ${bad} holds no PEM certificate`);
  });
});
