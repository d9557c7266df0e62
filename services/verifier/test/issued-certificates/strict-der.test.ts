import { X509Certificate } from 'node:crypto';
import { describe, expect } from 'vitest';
import { e2eTest } from '../support/fixtures.js';
import { ORG } from '../support/management.js';
import { derProblems, pemToDer, rawName, rdnSizes } from './der-check.js';
import { legacyLeaf, legacyPlatformCa } from './legacy-certificates.js';

// Every certificate the verifier issues — the platform CA and each organisation's
// request-signing leaves — is valid DER with one attribute per RDN, so a wallet
// whose parser is strict (Python's `cryptography`, Rust's x509 crates) can read the
// chain. Fetched over real HTTP as a wallet and a relying party would; judged by
// der-check.ts (asn1js plus a raw walk), which the old shape fails.
const test = e2eTest();

function expectStrictCertificate(der: Uint8Array, what: string) {
  expect(derProblems(der), what).toEqual([]);
  const sizes = rdnSizes(der);
  expect(sizes.subject.length, `${what}: subject RDNs`).toBeGreaterThan(1);
  expect(
    sizes.subject.every((size) => size === 1),
    `${what}: one attribute per subject RDN`,
  ).toBe(true);
  expect(
    sizes.issuer.every((size) => size === 1),
    `${what}: one attribute per issuer RDN`,
  ).toBe(true);
}

describe('certificates the verifier issues', () => {
  test('the platform CA at /oid4vp/platform-ca.pem is strict DER, CN and O as separate RDNs', async ({ e2e: e }) => {
    const response = await e.wallet.fetch('https://verifier.tessera.test/oid4vp/platform-ca.pem');
    expect(response.status).toBe(200);
    const der = pemToDer(await response.text());
    expectStrictCertificate(der, 'platform CA');
    expect(new X509Certificate(der).subject.split('\n').sort()).toEqual([
      'CN=Tessera Platform Request Signing CA',
      'O=Tessera',
    ]);
  });

  test.for(['P256', 'ED25519'])(
    'the %s request-signing leaf is strict DER, O, OU and CN as separate RDNs, its issuer exactly the CA’s subject',
    async (keyType, { e2e: e, api }) => {
      const caDer = pemToDer(
        await (await e.wallet.fetch('https://verifier.tessera.test/oid4vp/platform-ca.pem')).text(),
      );
      const response = await api('GET', `/v1/orgs/${ORG}/oid4vp/certificates/${keyType}`);
      expect(response.status).toBe(200);
      const leafDer = pemToDer(response.body.data.certificateChainPem);
      expectStrictCertificate(leafDer, `${keyType} leaf`);
      expect(rdnSizes(leafDer).subject).toEqual([1, 1, 1]);
      expect(rawName(leafDer, 'issuer').equals(rawName(caDer, 'subject'))).toBe(true);
      const leaf = new X509Certificate(leafDer);
      expect(leaf.verify(new X509Certificate(caDer).publicKey)).toBe(true);
      expect(leaf.subject.split('\n').sort()).toEqual([
        'CN=verifier.tessera.test',
        `O=${ORG}`,
        'OU=OpenID4VP request signing',
      ]);
    },
  );
});

describe('the check itself (so it can fail)', () => {
  test('flags the old shape: a multi-valued RDN whose SET OF is out of DER order', async () => {
    const ca = await legacyPlatformCa();
    const caDer = new Uint8Array(ca.certificate.rawData);
    expect(rdnSizes(caDer).subject).toEqual([2]);
    expect(derProblems(caDer).join('\n')).toMatch(/SET OF is not in DER order/);
    const leafDer = Buffer.from(
      await legacyLeaf(ca, {
        publicJwk: await import('jose').then(async (jose) =>
          jose.exportJWK((await jose.generateKeyPair('ES256')).publicKey),
        ),
        host: 'verifier.tessera.test',
        orgId: ORG,
      }),
      'base64',
    );
    expect(rdnSizes(leafDer).subject).toEqual([3]);
    expect(derProblems(leafDer).join('\n')).toMatch(/SET OF is not in DER order/);
  });

  test('flags non-minimal lengths, an encoded FALSE and a non-minimal INTEGER', () => {
    expect(derProblems(Uint8Array.from([0x30, 0x81, 0x03, 0x02, 0x01, 0x01]))).toEqual(['non-minimal length at 0']);
    expect(derProblems(Uint8Array.from([0x30, 0x03, 0x01, 0x01, 0x00]))[0]).toMatch(/BOOLEAN/);
    expect(derProblems(Uint8Array.from([0x30, 0x04, 0x02, 0x02, 0x00, 0x01]))[0]).toMatch(/INTEGER/);
    expect(derProblems(Uint8Array.from([0x30, 0x80, 0x00, 0x00]))[0]).toMatch(/indefinite/);
  });
});
