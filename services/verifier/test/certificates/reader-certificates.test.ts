import { webcrypto } from 'node:crypto';
import { describe, expect } from 'vitest';
import { parseAnnexCRequest } from '../support/annex-c-holder.js';
import { mdocQuery } from '../support/dcql-queries.js';
import { verifierTest } from '../support/fixtures.js';
import type { Harness } from '../support/harness.js';
import { oid4vpPath, type MemberCall } from '../support/management.js';
import { issue, makeRoot, pemOf, privateKeyPem, type Issued } from '../support/pki.js';
import { x509 } from '../verification/support/pki.js';

// The organisation's mdoc reader-authentication chain (issue 24, item 1): issued by
// the platform CA for its P-256 key and renewed like the request-signing leaf, or
// imported with `PUT certificates/READER`; carried by every org-iso-mdoc ReaderAuth.
const HOST = 'verifier.tessera.test';
const ORIGIN = 'https://rp.tessera.test';
const READER_EKU = '1.0.18013.5.1.6';
const DAY = 86_400_000;

const test = verifierTest.extend('orgPki', { scope: 'file' }, async () => {
  const root = await makeRoot('Org Reader Root CA');
  return { root, intermediate: await issue({ issuer: root, name: 'Org Reader CA', ca: true }) };
});

const reader = (api: MemberCall, org: string) =>
  api('GET', `${oid4vpPath(org)}/certificates/READER`, undefined, { org });
const putReader = (api: MemberCall, org: string, certificateChainPem: string) =>
  api('PUT', `${oid4vpPath(org)}/certificates/READER`, { certificateChainPem }, { org });

/** The organisation's P-256 request-signing key, as a CryptoKey (from its certificate). */
async function signingKeyOf(api: MemberCall, org: string): Promise<webcrypto.CryptoKey> {
  const pem = (await api('GET', `${oid4vpPath(org)}/certificates/P256`, undefined, { org })).body.data
    .certificateChainPem as string;
  return (await new x509.X509Certificate(
    pem.split('-----END CERTIFICATE-----')[0] + '-----END CERTIFICATE-----',
  ).publicKey.export()) as webcrypto.CryptoKey;
}

/** A reader leaf for the organisation's P-256 key, issued by the organisation's own CA. */
const readerLeafOf = async (api: MemberCall, org: string, intermediate: Issued) =>
  issue({
    issuer: intermediate,
    name: 'Org mdoc reader',
    ca: false,
    publicKey: await signingKeyOf(api, org),
    extendedKeyUsages: [READER_EKU],
  });

const spki = async (certificate: x509.X509Certificate) =>
  Buffer.from(await webcrypto.subtle.exportKey('spki', (await certificate.publicKey.export()) as webcrypto.CryptoKey));
const firstCertificate = (pem: string) =>
  new x509.X509Certificate(pem.match(/-----BEGIN CERTIFICATE-----[^-]+-----END CERTIFICATE-----/)![0]);

/** The x5chain of the ReaderAuth of a fresh org-iso-mdoc session, as a wallet trusting `anchorPem` reads it. */
async function readerChainOfSession(api: MemberCall, org: string, anchorPem: string) {
  await api('POST', `${oid4vpPath(org)}/verifier`, { verifierId: 'desk' }, { org });
  const created = await api(
    'POST',
    `${oid4vpPath(org)}/presentation?verifierId=desk`,
    { dcql: mdocQuery(), responseMode: 'dc_api', expectedOrigins: [ORIGIN], dcApiProtocols: ['org-iso-mdoc'] },
    { org },
  );
  expect(created.status, created.raw).toBe(201);
  const parsed = await parseAnnexCRequest(created.body.data.dcApiRequest.data, {
    origin: ORIGIN,
    readerAnchors: [new Uint8Array(new x509.X509Certificate(anchorPem).rawData)],
  });
  return parsed.docRequests[0]!.readerChain;
}

describe('the platform-issued reader certificate', () => {
  test('certifies the organisation’s P-256 key under the platform CA, with the ISO/IEC 18013-5 reader profile', async ({
    harness: h,
    api,
  }) => {
    const org = 'org-reader-platform';
    const response = await reader(api, org);
    expect(response.status, response.raw).toBe(200);
    const data = response.body.data;
    expect(data).toMatchObject({
      source: 'platform',
      issuer: h.ca.certificate.subject,
      sanDnsNames: [HOST],
      extendedKeyUsages: [READER_EKU],
    });
    expect(data.certificateChainPem.match(/BEGIN CERTIFICATE/g)).toHaveLength(1);
    const leaf = firstCertificate(data.certificateChainPem);
    const keyUsage = leaf.getExtension(x509.KeyUsagesExtension)!;
    expect(keyUsage.critical).toBe(true);
    expect(keyUsage.usages).toBe(x509.KeyUsageFlags.digitalSignature);
    expect(leaf.getExtension(x509.ExtendedKeyUsageExtension)!.critical).toBe(true);
    expect(await leaf.verify({ publicKey: h.ca.certificate.publicKey, signatureOnly: true })).toBe(true);
    const signingLeaf = firstCertificate(
      (await api('GET', `${oid4vpPath(org)}/certificates/P256`, undefined, { org })).body.data.certificateChainPem,
    );
    expect(await spki(leaf)).toEqual(await spki(signingLeaf));
    // Stored: the next read, and the ReaderAuth of a session, carry the same certificate.
    expect((await reader(api, org)).body.data.fingerprint).toBe(data.fingerprint);
    const chain = await readerChainOfSession(api, org, h.ca.certificatePem);
    expect(Buffer.from(chain[0]!).equals(Buffer.from(leaf.rawData))).toBe(true);
    expect(response.raw).not.toContain('PRIVATE KEY');
  });

  test('is renewed at use within 30 days of its end, like the request-signing leaf', async ({ harness: h, api }) => {
    const org = 'org-reader-renewal';
    const before = (await reader(api, org)).body.data;
    h.clock.offsetMs = 340 * DAY;
    try {
      const after = (await reader(api, org)).body.data;
      expect(after.fingerprint).not.toBe(before.fingerprint);
      expect(new Date(after.notAfter).getTime()).toBeGreaterThan(new Date(before.notAfter).getTime());
      expect((await reader(api, org)).body.data.fingerprint).toBe(after.fingerprint);
    } finally {
      h.clock.offsetMs = 0;
    }
  });
});

describe('importing the organisation’s own reader chain', () => {
  test('accepts a CA-issued reader leaf for its P-256 key, keeps the root out, and ReaderAuths carry it', async ({
    api,
    orgPki: { root, intermediate },
  }) => {
    const org = 'org-reader-import';
    const leaf = await readerLeafOf(api, org, intermediate);
    const imported = await putReader(api, org, pemOf(leaf, intermediate, root));
    expect(imported.status, imported.raw).toBe(200);
    expect(imported.body.data).toMatchObject({ source: 'imported', extendedKeyUsages: [READER_EKU] });
    expect(imported.body.data.certificateChainPem.match(/BEGIN CERTIFICATE/g)).toHaveLength(2);
    expect((await reader(api, org)).body.data.fingerprint).toBe(imported.body.data.fingerprint);
    const chain = await readerChainOfSession(api, org, root.certificate.toString('pem'));
    expect(chain.map((der) => Buffer.from(der).toString('base64'))).toEqual([
      Buffer.from(leaf.certificate.rawData).toString('base64'),
      Buffer.from(intermediate.certificate.rawData).toString('base64'),
    ]);
  });

  test('an imported chain for a key the organisation has since replaced is not used: a platform leaf certifies the new key', async ({
    harness: h,
    api,
    orgPki: { root, intermediate },
  }) => {
    const org = 'org-reader-rekeyed';
    const leaf = await readerLeafOf(api, org, intermediate);
    expect((await putReader(api, org, pemOf(leaf, intermediate))).status).toBe(200);
    const signing = await issue({ issuer: intermediate, name: 'Org request signing', ca: false, dns: [HOST] });
    const rekeyed = await api(
      'PUT',
      `${oid4vpPath(org)}/certificates/P256`,
      { certificateChainPem: pemOf(signing, intermediate, root), privateKeyPem: await privateKeyPem(signing) },
      { org },
    );
    expect(rekeyed.status, rekeyed.raw).toBe(200);
    const now = (await reader(api, org)).body.data;
    expect(now).toMatchObject({ source: 'platform', issuer: h.ca.certificate.subject });
    expect(await spki(firstCertificate(now.certificateChainPem))).toEqual(await spki(signing.certificate));
  });

  test('refuses what is not a reader chain for the organisation’s key (400, nothing changes)', async ({
    api,
    orgPki: { root, intermediate },
  }) => {
    const org = 'org-reader-refusals';
    const before = (await reader(api, org)).body.data;
    const key = await signingKeyOf(api, org);
    const readerLeaf = (options: Partial<Parameters<typeof issue>[0]> = {}) =>
      issue({
        issuer: intermediate,
        name: 'Org mdoc reader',
        ca: false,
        publicKey: key,
        extendedKeyUsages: [READER_EKU],
        ...options,
      });
    const cases: Array<[string, string, RegExp]> = [
      ['not PEM', 'not a certificate', /PEM certificates/],
      ['a self-signed leaf', pemOf(root), /self-signed/],
      ['a leaf without its issuer', pemOf(await readerLeaf()), /issuing CA/],
      [
        'a leaf without the reader EKU',
        pemOf(await readerLeaf({ extendedKeyUsages: undefined }), intermediate),
        /1\.0\.18013\.5\.1\.6/,
      ],
      [
        'a leaf for TLS only',
        pemOf(await readerLeaf({ extendedKeyUsages: ['1.3.6.1.5.5.7.3.1'] }), intermediate),
        /1\.0\.18013\.5\.1\.6/,
      ],
      ['a leaf for another key', pemOf(await readerLeaf({ publicKey: undefined }), intermediate), /another key/],
      [
        'an expired leaf',
        pemOf(
          await readerLeaf({ notBefore: new Date(Date.now() - 10 * DAY), notAfter: new Date(Date.now() - DAY) }),
          intermediate,
        ),
        /valid|expired|notAfter/i,
      ],
    ];
    for (const [name, pem, message] of cases) {
      const refused = await putReader(api, org, pem);
      expect(refused.status, name).toBe(400);
      expect(refused.body.code, name).toBe('VALIDATION_FAILED');
      expect(refused.body.details, name).toEqual(
        expect.arrayContaining([{ path: '/certificateChainPem', message: expect.stringMatching(message) }]),
      );
    }
    expect((await api('PUT', `${oid4vpPath(org)}/certificates/READER`, {}, { org })).status).toBe(400);
    expect(
      (
        await api(
          'PUT',
          `${oid4vpPath(org)}/certificates/READER`,
          { certificateChainPem: 'x', privateKeyPem: 'y' },
          { org },
        )
      ).status,
    ).toBe(400);
    expect((await reader(api, org)).body.data).toEqual(before);
  });

  test('needs a token, a role in the organisation and one of owner, admin or verifier', async ({ harness: h }) => {
    const checks = async (h: Harness, method: 'GET' | 'PUT') => {
      const url = `${oid4vpPath('org-reader-auth')}/certificates/READER`;
      const body = method === 'PUT' ? { body: { certificateChainPem: 'x' } } : {};
      expect((await h.call(method, url, body)).status).toBe(401);
      expect(
        (await h.call(method, url, { ...body, headers: await h.auth('org-reader-other', ['owner']) })).status,
      ).toBe(403);
      expect(
        (await h.call(method, url, { ...body, headers: await h.auth('org-reader-auth', ['member']) })).status,
      ).toBe(403);
    };
    await checks(h, 'GET');
    await checks(h, 'PUT');
  });
});
