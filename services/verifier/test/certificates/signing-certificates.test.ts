import { describe, expect } from 'vitest';
import { sdJwtQuery } from '../support/dcql-queries.js';
import { verifierTest } from '../support/fixtures.js';
import type { MemberCall } from '../support/management.js';
import { issue, makeRoot, pemOf, privateKeyPem } from '../support/pki.js';
import { headerOf, resolveAsWallet, resolveDcApiAsWallet } from '../support/wallet.js';

const HOST = 'verifier.tessera.test';

// An organisation's own PKI: a root and an issuing CA under it.
const test = verifierTest.extend('orgPki', { scope: 'file' }, async () => {
  const root = await makeRoot();
  return { root, intermediate: await issue({ issuer: root, name: 'Org Issuing CA', ca: true }) };
});

/** Imports a chain and key for `keyType` as organisation `org`. */
const put = (api: MemberCall, org: string, keyType: string, certificateChainPem: string, key: string) =>
  api('PUT', `/v1/orgs/${org}/oid4vp/certificates/${keyType}`, { certificateChainPem, privateKeyPem: key }, { org });

describe('platform certificates', () => {
  test('issues each organisation a leaf under the platform CA with SAN dNSName = host of PUBLIC_BASE_URL', async ({
    harness: h,
    api,
  }) => {
    const org = 'org-platform';
    for (const keyType of ['P256', 'ED25519']) {
      const response = await api('GET', `/v1/orgs/${org}/oid4vp/certificates/${keyType}`, undefined, { org });
      expect(response.status).toBe(200);
      const data = response.body.data;
      expect(data).toMatchObject({
        keyType,
        source: 'platform',
        sanDnsNames: [HOST],
        issuer: h.ca.certificate.subject,
      });
      expect(data.subject).not.toBe(data.issuer);
      expect(data.certificateChainPem.match(/BEGIN CERTIFICATE/g)).toHaveLength(1);
      expect(data.fingerprint).toMatch(/^[0-9a-f]{64}$/);
    }
    expect((await api('GET', `/v1/orgs/${org}/oid4vp/certificates/RSA`, undefined, { org })).status).toBe(400);
  });
});

describe("importing an organisation's own chain", () => {
  test('accepts a CA-issued chain, keeps the root out of x5c, and signs requests a wallet trusting that root accepts', async ({
    harness: h,
    api,
    orgPki: { root, intermediate },
  }) => {
    const org = 'org-import';
    await api('POST', `/v1/orgs/${org}/oid4vp/verifier`, { verifierId: 'desk' }, { org });
    const leaf = await issue({ issuer: intermediate, name: 'Org request signing', ca: false, dns: [HOST] });
    const response = await put(api, org, 'P256', pemOf(leaf, intermediate, root), await privateKeyPem(leaf));
    expect(response.status, response.raw).toBe(200);
    expect(response.body.data).toMatchObject({ keyType: 'P256', source: 'imported', sanDnsNames: [HOST] });
    expect(response.body.data.certificateChainPem.match(/BEGIN CERTIFICATE/g)).toHaveLength(2);
    expect(response.raw).not.toContain('PRIVATE KEY');

    for (const clientIdPrefix of ['x509_hash', 'x509_san_dns']) {
      const created = await api(
        'POST',
        `/v1/orgs/${org}/oid4vp/presentation?verifierId=desk`,
        { dcql: sdJwtQuery(), responseMode: 'direct_post.jwt', requestSigner: { method: 'X509_P256', clientIdPrefix } },
        { org },
      );
      const session = created.body.data;
      const resolved = await resolveAsWallet({
        app: h.app,
        caPem: root.certificate.toString('pem'),
        authorizationRequestUri: session.authorizationRequestUri,
      });
      expect(resolved.client.prefix).toBe(clientIdPrefix);
      expect(resolved.jar?.jwt.header.x5c).toHaveLength(2);
    }
    const dcApi = (
      await api(
        'POST',
        `/v1/orgs/${org}/oid4vp/presentation?verifierId=desk`,
        { dcql: sdJwtQuery(), responseMode: 'dc_api', expectedOrigins: ['https://rp.example'] },
        { org },
      )
    ).body.data;
    expect(headerOf(dcApi.dcApiRequest.data.request).x5c).toHaveLength(2);
    await expect(
      resolveDcApiAsWallet({
        app: h.app,
        caPem: root.certificate.toString('pem'),
        data: dcApi.dcApiRequest.data,
        origin: 'https://rp.example',
      }),
    ).resolves.toBeTruthy();
    await expect(
      resolveDcApiAsWallet({
        app: h.app,
        caPem: root.certificate.toString('pem'),
        data: dcApi.dcApiRequest.data,
        origin: 'https://evil.example',
      }),
    ).rejects.toThrow();
  });

  test('accepts an Ed25519 leaf and refuses x509_san_dns when the leaf lacks the host', async ({
    api,
    orgPki: { intermediate },
  }) => {
    const org = 'org-ed';
    await api('POST', `/v1/orgs/${org}/oid4vp/verifier`, { verifierId: 'desk' }, { org });
    const leaf = await issue({
      issuer: intermediate,
      name: 'Ed leaf',
      ca: false,
      keyAlgorithm: 'ED25519',
      dns: ['other.example'],
    });
    expect((await put(api, org, 'ED25519', pemOf(leaf, intermediate), await privateKeyPem(leaf))).status).toBe(200);
    const refused = await api(
      'POST',
      `/v1/orgs/${org}/oid4vp/presentation?verifierId=desk`,
      {
        dcql: sdJwtQuery(),
        responseMode: 'direct_post',
        requestSigner: { method: 'X509_ED25519', clientIdPrefix: 'x509_san_dns' },
      },
      { org },
    );
    expect(refused.body).toMatchObject({ statusCode: 400, details: [{ path: '/requestSigner/clientIdPrefix' }] });
    const hash = await api(
      'POST',
      `/v1/orgs/${org}/oid4vp/presentation?verifierId=desk`,
      { dcql: sdJwtQuery(), responseMode: 'direct_post', requestSigner: { method: 'X509_ED25519' } },
      { org },
    );
    expect(hash.status).toBe(201);
  });

  test('refuses invalid chains and keys with a clear 400, keeping the current key', async ({
    api,
    orgPki: { root, intermediate },
  }) => {
    const org = 'org-refused';
    const before = (await api('GET', `/v1/orgs/${org}/oid4vp/certificates/P256`, undefined, { org })).body.data;
    const leaf = await issue({ issuer: intermediate, name: 'leaf', ca: false, dns: [HOST] });
    const nonCa = await issue({ issuer: root, name: 'Not a CA', ca: false });
    const leafUnderNonCa = await issue({ issuer: nonCa, name: 'leaf', ca: false });
    const expired = await issue({
      issuer: root,
      name: 'Expired CA',
      ca: true,
      notBefore: new Date(Date.now() - 10 * 86_400_000),
      notAfter: new Date(Date.now() - 86_400_000),
    });
    const leafUnderExpired = await issue({ issuer: expired, name: 'leaf', ca: false });
    const edLeaf = await issue({ issuer: intermediate, name: 'ed', ca: false, keyAlgorithm: 'ED25519' });
    const other = await issue({ issuer: intermediate, name: 'other', ca: false });
    const cases: Array<[string, string, string, string, RegExp]> = [
      [
        'non-CA intermediate',
        'P256',
        pemOf(leafUnderNonCa, nonCa, root),
        await privateKeyPem(leafUnderNonCa),
        /not a CA/,
      ],
      [
        'expired intermediate',
        'P256',
        pemOf(leafUnderExpired, expired, root),
        await privateKeyPem(leafUnderExpired),
        /expired/,
      ],
      ['self-signed leaf', 'P256', pemOf(root), await privateKeyPem(root), /self-signed/],
      ['key not matching the leaf', 'P256', pemOf(leaf, intermediate), await privateKeyPem(other), /does not match/],
      ['wrong key type', 'P256', pemOf(edLeaf, intermediate), await privateKeyPem(edLeaf), /P-256/],
      ['leaf without its issuer', 'P256', pemOf(leaf), await privateKeyPem(leaf), /issuing CA/],
      ['broken link', 'P256', pemOf(leaf, nonCa), await privateKeyPem(leaf), /not signed by/],
      ['not PEM', 'P256', 'hello', await privateKeyPem(leaf), /PEM certificates/],
      ['key not PEM', 'P256', pemOf(leaf, intermediate), 'nope', /PEM private key/],
    ];
    for (const [name, keyType, chain, key, message] of cases) {
      const response = await put(api, org, keyType, chain, key);
      expect(response.status, name).toBe(400);
      expect(JSON.stringify(response.body.details ?? response.body.message), name).toMatch(message);
      if (key.length > 90) expect(response.raw).not.toContain(key.slice(40, 90));
    }
    expect(
      (await api('PUT', `/v1/orgs/${org}/oid4vp/certificates/P256`, { certificateChainPem: 'x' }, { org })).status,
    ).toBe(400);
    const after = (await api('GET', `/v1/orgs/${org}/oid4vp/certificates/P256`, undefined, { org })).body.data;
    expect(after.fingerprint).toBe(before.fingerprint);
  });
});
