import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHarness, type Harness } from '../support/harness.js';
import { ORG, sdJwtQuery } from '../support/dcql-queries.js';
import { issue, makeRoot, pemOf, privateKeyPem, type Issued } from '../support/pki.js';
import { headerOf, resolveAsWallet, resolveDcApiAsWallet } from '../support/wallet.js';

const HOST = 'verifier.tessera.test';
let h: Harness;
let root: Issued;
let intermediate: Issued;

beforeAll(async () => {
  h = await createHarness();
  root = await makeRoot();
  intermediate = await issue({ issuer: root, name: 'Org Issuing CA', ca: true });
});
afterAll(() => h.close());

async function send(method: string, url: string, payload?: unknown, org = ORG) {
  return h.app.inject({ method: method as 'GET', url, headers: await h.auth(org), ...(payload !== undefined ? { payload: payload as object } : {}) });
}
const put = (keyType: string, certificateChainPem: string, key: string, org = ORG) => send('PUT', `/v1/orgs/${org}/oid4vp/certificates/${keyType}`, { certificateChainPem, privateKeyPem: key }, org);

describe('platform certificates', () => {
  it('issues each organisation a leaf under the platform CA with SAN dNSName = host of PUBLIC_BASE_URL', async () => {
    for (const keyType of ['P256', 'ED25519']) {
      const response = await send('GET', `/v1/orgs/org-platform/oid4vp/certificates/${keyType}`, undefined, 'org-platform');
      expect(response.statusCode).toBe(200);
      const data = response.json().data;
      expect(data).toMatchObject({ keyType, source: 'platform', sanDnsNames: [HOST], issuer: h.ca.certificate.subject });
      expect(data.subject).not.toBe(data.issuer);
      expect(data.certificateChainPem.match(/BEGIN CERTIFICATE/g)).toHaveLength(1);
      expect(data.fingerprint).toMatch(/^[0-9a-f]{64}$/);
    }
    expect((await send('GET', '/v1/orgs/org-platform/oid4vp/certificates/RSA', undefined, 'org-platform')).statusCode).toBe(400);
  });
});

describe('importing an organisation\'s own chain', () => {
  it('accepts a CA-issued chain, keeps the root out of x5c, and signs requests a wallet trusting that root accepts', async () => {
    const org = 'org-import';
    await send('POST', `/v1/orgs/${org}/oid4vp/verifier`, { verifierId: 'desk' }, org);
    const leaf = await issue({ issuer: intermediate, name: 'Org request signing', ca: false, dns: [HOST] });
    const response = await put('P256', pemOf(leaf, intermediate, root), await privateKeyPem(leaf), org);
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json().data).toMatchObject({ keyType: 'P256', source: 'imported', sanDnsNames: [HOST] });
    expect(response.json().data.certificateChainPem.match(/BEGIN CERTIFICATE/g)).toHaveLength(2);
    expect(response.body).not.toContain('PRIVATE KEY');

    for (const clientIdPrefix of ['x509_hash', 'x509_san_dns']) {
      const created = await send('POST', `/v1/orgs/${org}/oid4vp/presentation?verifierId=desk`, { dcql: sdJwtQuery(), responseMode: 'direct_post.jwt', requestSigner: { method: 'X509_P256', clientIdPrefix } }, org);
      const session = created.json().data;
      const resolved = await resolveAsWallet({ app: h.app, caPem: root.certificate.toString('pem'), authorizationRequestUri: session.authorizationRequestUri });
      expect(resolved.client.prefix).toBe(clientIdPrefix);
      expect(resolved.jar?.jwt.header.x5c).toHaveLength(2);
    }
    const dcApi = (await send('POST', `/v1/orgs/${org}/oid4vp/presentation?verifierId=desk`, { dcql: sdJwtQuery(), responseMode: 'dc_api', expectedOrigins: ['https://rp.example'] }, org)).json().data;
    expect(headerOf(dcApi.dcApiRequest.data.request).x5c).toHaveLength(2);
    await expect(resolveDcApiAsWallet({ app: h.app, caPem: root.certificate.toString('pem'), data: dcApi.dcApiRequest.data, origin: 'https://rp.example' })).resolves.toBeTruthy();
    await expect(resolveDcApiAsWallet({ app: h.app, caPem: root.certificate.toString('pem'), data: dcApi.dcApiRequest.data, origin: 'https://evil.example' })).rejects.toThrow();
  });

  it('accepts an Ed25519 leaf and refuses x509_san_dns when the leaf lacks the host', async () => {
    const org = 'org-ed';
    await send('POST', `/v1/orgs/${org}/oid4vp/verifier`, { verifierId: 'desk' }, org);
    const leaf = await issue({ issuer: intermediate, name: 'Ed leaf', ca: false, keyAlgorithm: 'ED25519', dns: ['other.example'] });
    expect((await put('ED25519', pemOf(leaf, intermediate), await privateKeyPem(leaf), org)).statusCode).toBe(200);
    const refused = await send('POST', `/v1/orgs/${org}/oid4vp/presentation?verifierId=desk`, { dcql: sdJwtQuery(), responseMode: 'direct_post', requestSigner: { method: 'X509_ED25519', clientIdPrefix: 'x509_san_dns' } }, org);
    expect(refused.json()).toMatchObject({ statusCode: 400, details: [{ path: '/requestSigner/clientIdPrefix' }] });
    const hash = await send('POST', `/v1/orgs/${org}/oid4vp/presentation?verifierId=desk`, { dcql: sdJwtQuery(), responseMode: 'direct_post', requestSigner: { method: 'X509_ED25519' } }, org);
    expect(hash.statusCode).toBe(201);
  });

  it('refuses invalid chains and keys with a clear 400, keeping the current key', async () => {
    const org = 'org-refused';
    const before = (await send('GET', `/v1/orgs/${org}/oid4vp/certificates/P256`, undefined, org)).json().data;
    const leaf = await issue({ issuer: intermediate, name: 'leaf', ca: false, dns: [HOST] });
    const nonCa = await issue({ issuer: root, name: 'Not a CA', ca: false });
    const leafUnderNonCa = await issue({ issuer: nonCa, name: 'leaf', ca: false });
    const expired = await issue({ issuer: root, name: 'Expired CA', ca: true, notBefore: new Date(Date.now() - 10 * 86_400_000), notAfter: new Date(Date.now() - 86_400_000) });
    const leafUnderExpired = await issue({ issuer: expired, name: 'leaf', ca: false });
    const edLeaf = await issue({ issuer: intermediate, name: 'ed', ca: false, keyAlgorithm: 'ED25519' });
    const other = await issue({ issuer: intermediate, name: 'other', ca: false });
    const cases: Array<[string, string, string, string, RegExp]> = [
      ['non-CA intermediate', 'P256', pemOf(leafUnderNonCa, nonCa, root), await privateKeyPem(leafUnderNonCa), /not a CA/],
      ['expired intermediate', 'P256', pemOf(leafUnderExpired, expired, root), await privateKeyPem(leafUnderExpired), /expired/],
      ['self-signed leaf', 'P256', pemOf(root), await privateKeyPem(root), /self-signed/],
      ['key not matching the leaf', 'P256', pemOf(leaf, intermediate), await privateKeyPem(other), /does not match/],
      ['wrong key type', 'P256', pemOf(edLeaf, intermediate), await privateKeyPem(edLeaf), /P-256/],
      ['leaf without its issuer', 'P256', pemOf(leaf), await privateKeyPem(leaf), /issuing CA/],
      ['broken link', 'P256', pemOf(leaf, nonCa), await privateKeyPem(leaf), /not signed by/],
      ['not PEM', 'P256', 'hello', await privateKeyPem(leaf), /PEM certificates/],
      ['key not PEM', 'P256', pemOf(leaf, intermediate), 'nope', /PEM private key/],
    ];
    for (const [name, keyType, chain, key, message] of cases) {
      const response = await put(keyType, chain, key, org);
      expect(response.statusCode, name).toBe(400);
      expect(JSON.stringify(response.json().details ?? response.json().message), name).toMatch(message);
      if (key.length > 90) expect(response.body).not.toContain(key.slice(40, 90));
    }
    expect((await send('PUT', `/v1/orgs/${org}/oid4vp/certificates/P256`, { certificateChainPem: 'x' }, org)).statusCode).toBe(400);
    const after = (await send('GET', `/v1/orgs/${org}/oid4vp/certificates/P256`, undefined, org)).json().data;
    expect(after.fingerprint).toBe(before.fingerprint);
  });
});
