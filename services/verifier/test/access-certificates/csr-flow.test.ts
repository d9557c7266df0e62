import { describe, expect } from 'vitest';
import { certifyRequest, readRequestWithOpenssl } from '../support/access-certificates.js';
import { sdJwtQuery } from '../support/dcql-queries.js';
import { verifierTest } from '../support/fixtures.js';
import type { MemberCall } from '../support/management.js';
import { issue, makeRoot, pemOf } from '../support/pki.js';
import { storedPendingSigningKeys, storedSigningKeys } from '../support/stored-rows.js';
import { headerOf, resolveAsWallet } from '../support/wallet.js';

// Access certificates by CSR (issue 25, item 1): the organisation's key is made by the
// verifier and never leaves it; a CA outside (OpenSSL here, sharing nothing with the
// service) certifies the request; the chain alone then puts the key in force. Until then
// the current signer stays.
const HOST = 'verifier.tessera.test';
const subject = {
  commonName: 'Example Shop',
  organizationName: 'Example Shop GmbH',
  organizationIdentifier: 'VATDE-123456789',
  countryName: 'DE',
};

const test = verifierTest.extend('orgCa', { scope: 'file' }, async () => {
  const root = await makeRoot('Registrar-approved Root CA');
  return { root, intermediate: await issue({ issuer: root, name: 'WRPAC Issuing CA', ca: true }) };
});

const path = (org: string, rest: string) => `/v1/orgs/${org}/oid4vp/certificates${rest}`;
const asOwner = { roles: ['owner'] };

/** `PUT certificates/{keyType}` with a chain alone (a verifier-role call: completing a CSR is any member's). */
const putChain = (api: MemberCall, org: string, keyType: string, certificateChainPem: string) =>
  api('PUT', path(org, `/${keyType}`), { certificateChainPem }, { org });

async function requestCsr(api: MemberCall, org: string, keyType: string, body: unknown = { subject }) {
  return api('POST', path(org, `/${keyType}/csr`), body, { org, roles: ['owner'] });
}

describe('a certificate signing request', () => {
  test('makes a key that stays here and a PKCS#10 request OpenSSL verifies, with the subject and SANs asked for', async ({
    harness: h,
    api,
  }) => {
    const org = 'org-csr-made';
    const response = await requestCsr(api, org, 'P256', {
      subject,
      sanDns: [HOST],
      sanUri: ['https://shop.example/support'],
    });
    expect(response.status, response.raw).toBe(201);
    const data = response.body.data;
    expect(data).toEqual({
      keyId: expect.stringMatching(/^[0-9a-f-]{36}$/),
      keyType: 'P256',
      csrPem: expect.stringMatching(/^-----BEGIN CERTIFICATE REQUEST-----\n/),
      subject,
      sanDns: [HOST],
      sanUri: ['https://shop.example/support'],
      createdAt: expect.any(String),
    });
    expect(response.raw).not.toContain('PRIVATE KEY');
    expect(response.raw).not.toContain('"d"');
    const { text, verified } = readRequestWithOpenssl(data.csrPem);
    expect(verified).toBe(true);
    expect(text).toContain('CN=Example Shop,organizationIdentifier=VATDE-123456789,O=Example Shop GmbH,C=DE');
    expect(text).toContain(`DNS:${HOST}, URI:https://shop.example/support`);

    // At rest the key is sealed (no JWK member `d` in the clear), one pending key per key type.
    const [stored] = await storedPendingSigningKeys(h.testDb.database, org);
    expect(stored).toMatchObject({ keyId: data.keyId, keyType: 'P256', csrPem: data.csrPem });
    expect(stored!.encryptedPrivateKey).toMatch(/^v1\./);
    expect(JSON.stringify(stored)).not.toMatch(/"d"\s*:/);
  });

  test('leaves the signer in force until the chain comes, then signs with the new key; GET certificates shows both', async ({
    harness: h,
    api,
    orgCa: { root, intermediate },
  }) => {
    const org = 'org-csr-flow';
    await api('POST', `/v1/orgs/${org}/oid4vp/verifier`, { verifierId: 'desk' }, { org });
    const before = (await api('GET', path(org, '/P256'), undefined, { org })).body.data;
    expect(before.source).toBe('platform');
    const csr = (await requestCsr(api, org, 'P256', { subject, sanDns: [HOST] })).body.data;

    const listed = await api('GET', path(org, ''), undefined, { org });
    expect(listed.status).toBe(200);
    expect(listed.body.data).toEqual([
      { keyType: 'P256', signer: before, pendingCsr: csr },
      { keyType: 'ED25519', signer: expect.objectContaining({ source: 'platform' }), pendingCsr: null },
    ]);
    // Sessions made meanwhile are still signed by the platform leaf.
    const meanwhile = await api(
      'POST',
      `/v1/orgs/${org}/oid4vp/presentation?verifierId=desk`,
      { dcql: sdJwtQuery(), responseMode: 'direct_post.jwt' },
      { org },
    );
    const platformSigned = await h.call('GET', new URL(meanwhile.body.data.requestUri).pathname);
    expect(headerOf(platformSigned.raw).x5c).toEqual([before.certificateChainPem.replace(/-----[A-Z ]+-----|\s/g, '')]);

    const leafPem = await certifyRequest({ issuer: intermediate, csrPem: csr.csrPem });
    const imported = await putChain(api, org, 'P256', `${leafPem}${pemOf(intermediate, root)}`);
    expect(imported.status, imported.raw).toBe(200);
    expect(imported.body.data).toMatchObject({
      keyType: 'P256',
      source: 'csr',
      organizationIdentifier: 'VATDE-123456789',
      sanDnsNames: [HOST],
    });
    // The pending key became the signing key: it is gone from the pending list.
    const after = (await api('GET', path(org, ''), undefined, { org })).body.data;
    expect(after[0]).toEqual({ keyType: 'P256', signer: imported.body.data, pendingCsr: null });
    expect(await storedPendingSigningKeys(h.testDb.database, org)).toEqual([]);
    const [signingKey] = await storedSigningKeys(h.testDb.database, org);
    expect(signingKey).toMatchObject({ source: 'csr' });

    // A wallet trusting the CA's root accepts the organisation's next request, signed with the new key.
    const session = (
      await api(
        'POST',
        `/v1/orgs/${org}/oid4vp/presentation?verifierId=desk`,
        { dcql: sdJwtQuery(), responseMode: 'direct_post.jwt' },
        { org },
      )
    ).body.data;
    const resolved = await resolveAsWallet({
      app: h.app,
      caPem: root.certificate.toString('pem'),
      authorizationRequestUri: session.authorizationRequestUri,
    });
    expect(resolved.jar?.jwt.header.x5c).toHaveLength(2);
    expect(resolved.authorizationRequestPayload.client_id).toBe(session.clientId);
  });

  test('works for Ed25519 too', async ({ api, orgCa: { intermediate } }) => {
    const org = 'org-csr-ed25519';
    const csr = (await requestCsr(api, org, 'ED25519')).body.data;
    expect(readRequestWithOpenssl(csr.csrPem).text).toContain('ED25519');
    const leafPem = await certifyRequest({ issuer: intermediate, csrPem: csr.csrPem });
    const imported = await putChain(api, org, 'ED25519', `${leafPem}${pemOf(intermediate)}`);
    expect(imported.status, imported.raw).toBe(200);
    expect(imported.body.data).toMatchObject({ keyType: 'ED25519', source: 'csr' });
  });

  test('a chain for another key, or with no CSR pending, is 400 CERTIFICATE_KEY_MISMATCH and changes nothing', async ({
    harness: h,
    api,
    orgCa: { intermediate },
  }) => {
    const org = 'org-csr-mismatch';
    // No CSR pending yet.
    const other = (await requestCsr(api, 'org-csr-other', 'P256')).body.data;
    const otherLeaf = await certifyRequest({ issuer: intermediate, csrPem: other.csrPem });
    const before = (await api('GET', path(org, ''), undefined, { org })).body.data;
    const none = await putChain(api, org, 'P256', `${otherLeaf}${pemOf(intermediate)}`);
    expect(none.status).toBe(400);
    expect(none.body).toMatchObject({
      code: 'CERTIFICATE_KEY_MISMATCH',
      details: [{ path: '/certificateChainPem' }],
    });
    expect(none.body.message).toMatch(/no certificate signing request of P256 is pending/);

    // A CSR pending, but the leaf certifies another organisation's key.
    const first = (await requestCsr(api, org, 'P256')).body.data;
    const mismatch = await putChain(api, org, 'P256', `${otherLeaf}${pemOf(intermediate)}`);
    expect(mismatch.body).toMatchObject({ statusCode: 400, code: 'CERTIFICATE_KEY_MISMATCH' });

    // A newer request replaces the pending key: a chain for the first one no longer fits.
    const firstLeaf = await certifyRequest({ issuer: intermediate, csrPem: first.csrPem });
    const second = (await requestCsr(api, org, 'P256')).body.data;
    expect(second.keyId).not.toBe(first.keyId);
    const stale = await putChain(api, org, 'P256', `${firstLeaf}${pemOf(intermediate)}`);
    expect(stale.body.code).toBe('CERTIFICATE_KEY_MISMATCH');
    const after = (await api('GET', path(org, ''), undefined, { org })).body.data;
    expect(after.map((entry: { signer: unknown }) => entry.signer)).toEqual(
      before.map((entry: { signer: unknown }) => entry.signer),
    );
    expect(after[0].pendingCsr.keyId).toBe(second.keyId);
    expect(await storedPendingSigningKeys(h.testDb.database, org)).toHaveLength(1);
  });

  test('the leaf rules of an import hold: not self-signed, its issuer included, the chain valid', async ({
    api,
    orgCa: { root, intermediate },
  }) => {
    const org = 'org-csr-leaf-rules';
    const csr = (await requestCsr(api, org, 'P256')).body.data;
    const leafPem = await certifyRequest({ issuer: intermediate, csrPem: csr.csrPem });
    const alone = await putChain(api, org, 'P256', leafPem);
    expect(alone.body).toMatchObject({ statusCode: 400, code: 'VALIDATION_FAILED' });
    expect(alone.body.message).toMatch(/issuing CA/);
    const expiredCa = await issue({
      issuer: root,
      name: 'Expired CA',
      ca: true,
      notBefore: new Date(Date.now() - 10 * 86_400_000),
      notAfter: new Date(Date.now() - 86_400_000),
    });
    const underExpired = await certifyRequest({ issuer: expiredCa, csrPem: csr.csrPem });
    const refused = await putChain(api, org, 'P256', `${underExpired}${pemOf(expiredCa, root)}`);
    expect(refused.body).toMatchObject({ statusCode: 400, code: 'VALIDATION_FAILED' });
    // Nothing was taken: the right chain still completes the request.
    const imported = await putChain(api, org, 'P256', `${leafPem}${pemOf(intermediate, root)}`);
    expect(imported.status, imported.raw).toBe(200);
  });

  test('refuses a bad subject or SANs with a JSON Pointer per problem, and malformed bodies', async ({
    harness: h,
    api,
  }) => {
    const org = 'org-csr-invalid';
    const bad = await requestCsr(api, org, 'P256', {
      subject: { ...subject, countryName: 'Germany', organizationIdentifier: 'VAT 123' },
      sanDns: ['Not A Host'],
      sanUri: ['relative/path'],
    });
    expect(bad.status).toBe(400);
    expect(bad.body.code).toBe('VALIDATION_FAILED');
    expect(bad.body.details.map((detail: { path: string }) => detail.path)).toEqual([
      '/subject/countryName',
      '/subject/organizationIdentifier',
      '/sanDns/0',
      '/sanUri/0',
    ]);
    const empty = await api('POST', path(org, '/P256/csr'), undefined, { org, ...asOwner });
    expect(empty.body).toMatchObject({ statusCode: 400, code: 'VALIDATION_FAILED' });
    for (const body of [
      {},
      { subject: { commonName: 'x' } },
      { subject, extra: true },
      { subject: { ...subject, serialNumber: '1' } },
      { subject, sanDns: [] },
      { subject, sanDns: [{}] },
    ]) {
      const response = await requestCsr(api, org, 'P256', body);
      expect(response.status, JSON.stringify(body)).toBe(400);
      expect(response.body.code).toBe('VALIDATION_FAILED');
    }
    expect((await requestCsr(api, org, 'RSA')).status).toBe(400);
    expect(await storedPendingSigningKeys(h.testDb.database, org)).toEqual([]);
  });

  test('is for owners and admins: the verifier role, another organisation and no token are refused', async ({
    harness: h,
    api,
  }) => {
    const org = 'org-csr-roles';
    for (const role of ['owner', 'admin']) {
      const response = await api('POST', path(org, '/P256/csr'), { subject }, { org, roles: [role] });
      expect(response.status, role).toBe(201);
    }
    const verifier = await api('POST', path(org, '/P256/csr'), { subject }, { org, roles: ['verifier'] });
    expect(verifier.status).toBe(403);
    expect(verifier.body.code).toBe('FORBIDDEN');
    const foreign = await api('POST', path(org, '/P256/csr'), { subject }, { org: 'org-elsewhere', ...asOwner });
    expect(foreign.status).toBe(403);
    expect((await h.call('POST', path(org, '/P256/csr'), { body: { subject } })).status).toBe(401);
    // The role check comes before validation: a bad body from the verifier role is still 403.
    expect((await api('POST', path(org, '/P256/csr'), { nonsense: 1 }, { org })).status).toBe(403);
  });
});
