import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateCertificateAuthority, type CertificateAuthorityPem } from '@tessera/service-kit/x509';
import { makeCertificate, makeExpiredCa } from '../support/certificates.js';

// The trust-list CA in production: required, and checked at start — the built process
// exits 1 with one line naming the variable at fault, and never prints the key.
const MAIN = fileURLToPath(new URL('../../dist/main.js', import.meta.url));
const dataDir = mkdtempSync(join(tmpdir(), 'ecosystem-ca-config-'));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

const OIDC = {
  OIDC_ISSUER: 'https://idp.tessera.test/realms/tessera',
  OIDC_AUDIENCE: 'tessera',
  OIDC_JWKS_URI: 'https://idp.tessera.test/jwks',
};
let ca: CertificateAuthorityPem;
let other: CertificateAuthorityPem;
beforeAll(async () => {
  [ca, other] = await Promise.all([
    generateCertificateAuthority({ now: new Date(), commonName: 'CA' }),
    generateCertificateAuthority({ now: new Date(), commonName: 'Other' }),
  ]);
});

function start(env: Record<string, string>) {
  // A database that cannot be reached: the CA is checked before anything is opened.
  const result = spawnSync(process.execPath, [MAIN], {
    env: {
      PATH: process.env.PATH,
      DATA_DIR: dataDir,
      NODE_ENV: 'production',
      PORT: '0',
      DATABASE_URL: 'postgres://nobody@127.0.0.1:1/none',
      ...OIDC,
      ...env,
    },
    encoding: 'utf8',
    timeout: 20000,
  });
  return { status: result.status, stderr: result.stderr, output: result.stdout + result.stderr };
}

describe('ecosystem: the trust-list CA configuration', () => {
  it('a certificate without its key is refused before start, naming the missing variable', () => {
    const run = start({ TRUST_LIST_CA_CERT_PEM: ca.certificatePem });
    expect(run.status).toBe(1);
    expect(run.stderr).toContain('TRUST_LIST_CA_KEY_PEM: give both the trust-list CA certificate and its key');
  });

  it('inline and file variants of the same PEM together are refused', () => {
    const file = join(dataDir, 'ca.pem');
    writeFileSync(file, ca.certificatePem);
    const run = start({
      TRUST_LIST_CA_CERT_PEM: ca.certificatePem,
      TRUST_LIST_CA_CERT_PEM_FILE: file,
      TRUST_LIST_CA_KEY_PEM: ca.privateKeyPem,
    });
    expect(run.status).toBe(1);
    expect(run.stderr).toContain('TRUST_LIST_CA_CERT_PEM, TRUST_LIST_CA_CERT_PEM_FILE: give one, not both');
  });

  it.each([
    [
      'not a certificate',
      async () => ({ TRUST_LIST_CA_CERT_PEM: 'garbage', TRUST_LIST_CA_KEY_PEM: ca.privateKeyPem }),
      'TRUST_LIST_CA_CERT_PEM: not a PEM X.509 certificate',
    ],
    [
      'a leaf, not a CA',
      async () => ({
        TRUST_LIST_CA_CERT_PEM: (await makeCertificate({ ca: false })).pem,
        TRUST_LIST_CA_KEY_PEM: ca.privateKeyPem,
      }),
      'TRUST_LIST_CA_CERT_PEM: the certificate is not a CA certificate',
    ],
    [
      'an expired CA',
      async () => ({ TRUST_LIST_CA_CERT_PEM: (await makeExpiredCa()).pem, TRUST_LIST_CA_KEY_PEM: ca.privateKeyPem }),
      'TRUST_LIST_CA_CERT_PEM: not valid now',
    ],
    [
      'a key that is not a key',
      async () => ({ TRUST_LIST_CA_CERT_PEM: ca.certificatePem, TRUST_LIST_CA_KEY_PEM: 'not a key' }),
      'TRUST_LIST_CA_KEY_PEM: not a PKCS#8 PEM ECDSA P-256 private key',
    ],
    [
      "another CA's key",
      async () => ({ TRUST_LIST_CA_CERT_PEM: ca.certificatePem, TRUST_LIST_CA_KEY_PEM: other.privateKeyPem }),
      'TRUST_LIST_CA_KEY_PEM: does not match the trust-list CA certificate',
    ],
    [
      'an unreadable file',
      async () => ({
        TRUST_LIST_CA_CERT_PEM_FILE: join(dataDir, 'missing.pem'),
        TRUST_LIST_CA_KEY_PEM: ca.privateKeyPem,
      }),
      'TRUST_LIST_CA_CERT_PEM_FILE: cannot read',
    ],
  ])('%s: exit 1 with one line naming the variable, the key never printed', async (_case, env, line) => {
    const run = start(await env());
    expect(run.status).toBe(1);
    expect(run.stderr).toContain(`ecosystem: invalid trust-list CA: ${line}`);
    for (const key of [ca.privateKeyPem, other.privateKeyPem]) expect(run.output).not.toContain(key.split('\n')[1]);
  });
});
