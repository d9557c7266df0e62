import { createPublicKey, verify, webcrypto } from 'node:crypto';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import * as asn1js from 'asn1js';
import * as pkijs from 'pkijs';
import { createCertificateSigningRequest } from '../../src/crypto/certificate-signing-request.js';
import { accessCertificateIdentifier } from '../../src/crypto/access-certificate-identifier.js';
import { generateSigningKeyPair, type KeyType } from '../../src/crypto/signing-key.js';
import { makeRoot } from '../support/pki.js';
import * as x509 from '@peculiar/x509';

// The CSR is judged by parsers that share nothing with the code that made it (@peculiar/x509):
// OpenSSL (`openssl req -verify`), and pkijs's parse with node:crypto checking the signature (pkijs
// itself verifies ECDSA but not Ed25519).

pkijs.setEngine('test', new pkijs.CryptoEngine({ name: 'test', crypto: webcrypto as never }));

const dir = mkdtempSync(join(tmpdir(), 'tessera-csr-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** `openssl req` on the PEM: its output (stdout and stderr), and whether the self-signature verified. */
function openssl(pem: string, ...args: string[]): { output: string; verified: boolean } {
  const file = join(dir, `${Math.random().toString(36).slice(2)}.pem`);
  writeFileSync(file, pem);
  const run = spawnSync('openssl', ['req', '-in', file, '-verify', ...args], { encoding: 'utf8' });
  const output = `${run.stdout}${run.stderr}`;
  // OpenSSL 3.0 exits 0 on a failed self-signature and says so: judge by its words and the exit code.
  return { output, verified: run.status === 0 && output.includes('self-signature verify OK') };
}

/** The request's signature checked by node:crypto over pkijs's certificationRequestInfo bytes. */
function signatureVerifies(request: pkijs.CertificationRequest): boolean {
  const key = createPublicKey({
    key: Buffer.from(request.subjectPublicKeyInfo.toSchema().toBER()),
    format: 'der',
    type: 'spki',
  });
  const signature = Buffer.from(request.signatureValue.valueBlock.valueHexView);
  const digest = key.asymmetricKeyType === 'ed25519' ? null : 'sha256';
  return verify(digest, Buffer.from(request.tbsView), key, signature);
}

function parsePkcs10(pem: string): pkijs.CertificationRequest {
  const der = Buffer.from(pem.replace(/-----[A-Z ]+-----/g, '').replace(/\s+/g, ''), 'base64');
  return new pkijs.CertificationRequest({ schema: asn1js.fromBER(new Uint8Array(der)).result });
}

const subject = {
  commonName: 'Example Shop',
  organizationName: 'Example Relying Party GmbH',
  organizationIdentifier: 'VATDE-123456789',
  countryName: 'DE',
};

describe.each<KeyType>(['P256', 'ED25519'])('a CSR for a %s key', (keyType) => {
  it('is a PKCS#10 request OpenSSL verifies, naming the subject and SANs asked for', async () => {
    const keys = await generateSigningKeyPair(keyType);
    const csrPem = await createCertificateSigningRequest({
      keyType,
      ...keys,
      subject,
      sanDns: ['verifier.example.com'],
      sanUri: ['https://verifier.example.com/support'],
    });

    expect(csrPem).toMatch(/^-----BEGIN CERTIFICATE REQUEST-----\n/);
    // -verify checks the self-signature (proof of possession of the key).
    const { output: text, verified } = openssl(csrPem, '-noout', '-text', '-nameopt', 'RFC2253');
    expect(verified).toBe(true);
    expect(text).toContain('CN=Example Shop,organizationIdentifier=VATDE-123456789,O=Example Relying Party GmbH,C=DE');
    expect(text).toContain('DNS:verifier.example.com, URI:https://verifier.example.com/support');
    expect(text).toContain(keyType === 'P256' ? 'ecdsa-with-SHA256' : 'ED25519');
  });

  it('carries the public key of the pair, its signature checked over the bytes pkijs parses', async () => {
    const keys = await generateSigningKeyPair(keyType);
    const csrPem = await createCertificateSigningRequest({ keyType, ...keys, subject });
    const request = parsePkcs10(csrPem);

    expect(signatureVerifies(request)).toBe(true);
    if (keyType === 'P256') expect(await request.verify()).toBe(true);
    const spki = Buffer.from(request.subjectPublicKeyInfo.subjectPublicKey.valueBlock.valueHexView);
    const expected =
      keyType === 'P256'
        ? Buffer.concat([
            Buffer.from([4]),
            Buffer.from(keys.publicJwk.x!, 'base64url'),
            Buffer.from(keys.publicJwk.y!, 'base64url'),
          ])
        : Buffer.from(keys.publicJwk.x!, 'base64url');
    expect(spki.equals(expected)).toBe(true);
    // Without SANs the request asks for no extension at all.
    expect(request.attributes ?? []).toEqual([]);
  });

  it('fails to verify when its signature is altered (the test above can fail)', async () => {
    const keys = await generateSigningKeyPair(keyType);
    const csrPem = await createCertificateSigningRequest({ keyType, ...keys, subject });
    const der = Buffer.from(csrPem.replace(/-----[A-Z ]+-----/g, '').replace(/\s+/g, ''), 'base64');
    der[der.length - 3] = der[der.length - 3]! ^ 0xff;
    const tampered = `-----BEGIN CERTIFICATE REQUEST-----\n${der.toString('base64')}\n-----END CERTIFICATE REQUEST-----\n`;
    expect(openssl(tampered, '-noout').verified).toBe(false);
    expect(signatureVerifies(parsePkcs10(tampered))).toBe(false);
  });
});

describe('a CSR without organizationIdentifier', () => {
  it('names C, O and CN only', async () => {
    const keys = await generateSigningKeyPair('P256');
    const { organizationIdentifier: _omitted, ...withoutIdentifier } = subject;
    const csrPem = await createCertificateSigningRequest({ keyType: 'P256', ...keys, subject: withoutIdentifier });
    const { output, verified } = openssl(csrPem, '-noout', '-subject', '-nameopt', 'RFC2253');
    expect(verified).toBe(true);
    expect(output).toContain('subject=CN=Example Shop,O=Example Relying Party GmbH,C=DE\n');
  });

  it('is signed by the key even when a private JWK carries extra members (kid, alg)', async () => {
    const keys = await generateSigningKeyPair('P256');
    const csrPem = await createCertificateSigningRequest({
      keyType: 'P256',
      publicJwk: { ...keys.publicJwk, kid: 'k', alg: 'ES256' },
      privateJwk: { ...keys.privateJwk, kid: 'k', alg: 'ES256' },
      subject,
    });
    expect(signatureVerifies(parsePkcs10(csrPem))).toBe(true);
  });
});

describe('the identifier an access certificate carries', () => {
  it('is the organizationIdentifier of a certificate a CA issued for the CSR', async () => {
    const keys = await generateSigningKeyPair('P256');
    const csrPem = await createCertificateSigningRequest({ keyType: 'P256', ...keys, subject });
    // The outside CA: reads the CSR with @peculiar/x509 as a CA would and copies its subject.
    const csr = new x509.Pkcs10CertificateRequest(csrPem);
    const root = await makeRoot('Access CA');
    const leaf = await x509.X509CertificateGenerator.create({
      serialNumber: '01',
      subject: csr.subject,
      issuer: root.certificate.subject,
      notBefore: new Date(Date.now() - 60_000),
      notAfter: new Date(Date.now() + 86_400_000),
      signingAlgorithm: { name: 'ECDSA', hash: 'SHA-256' },
      publicKey: await csr.publicKey.export(),
      signingKey: root.keys.privateKey,
    });
    expect(accessCertificateIdentifier(leaf)).toBe('VATDE-123456789');
    expect(accessCertificateIdentifier(root.certificate)).toBeUndefined();
  });
});
