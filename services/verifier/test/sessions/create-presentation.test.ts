import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHarness, type Harness } from '../support/harness.js';
import { ORG, OTHER_ORG, sdJwtQuery } from '../support/dcql-queries.js';

let h: Harness;
beforeAll(async () => {
  h = await createHarness();
  await send('POST', `/v1/orgs/${ORG}/oid4vp/verifier`, { verifierId: 'desk' });
});
afterAll(() => h.close());

async function send(method: string, url: string, payload?: unknown, org = ORG) {
  return h.app.inject({ method: method as 'GET', url, headers: await h.auth(org), ...(payload !== undefined ? { payload: payload as object } : {}) });
}
const create = (payload: Record<string, unknown>, verifierId = 'desk', org = ORG) => send('POST', `/v1/orgs/${org}/oid4vp/presentation?verifierId=${verifierId}`, { dcql: sdJwtQuery(), responseMode: 'direct_post', ...payload }, org);
const sessionCount = async () => (await send('GET', `/v1/orgs/${ORG}/oid4vp/verifier-presentation`)).json().data.totalItems as number;

describe('create presentation (direct)', () => {
  it('answers 201 with the session and the request to hand the wallet; defaults to X509_P256 + x509_hash', async () => {
    const response = await create({ payloadState: 'order-42', redirectUri: 'https://acme.example/done' });
    expect(response.statusCode).toBe(201);
    const data = response.json().data;
    expect(data).toMatchObject({
      publicVerifierId: 'desk',
      payloadState: 'order-42',
      responseMode: 'direct_post',
      state: 'RequestCreated',
      requestUri: `https://verifier.tessera.test/oid4vp/authorization-requests/${data.authorizationRequestId}`,
      responseUri: `https://verifier.tessera.test/oid4vp/authorization-responses/${data.authorizationRequestId}`,
    });
    expect(data.clientId).toMatch(/^x509_hash:[A-Za-z0-9_-]{43}$/);
    expect(Buffer.from(data.nonce, 'base64url').length).toBeGreaterThanOrEqual(16);
    expect(Buffer.from(data.authorizationRequestId, 'base64url').length).toBeGreaterThanOrEqual(16);
    const uri = new URL(data.authorizationRequestUri);
    expect(uri.protocol).toBe('openid4vp:');
    expect(uri.searchParams.get('client_id')).toBe(data.clientId);
    expect(uri.searchParams.get('request_uri')).toBe(data.requestUri);
    expect(uri.searchParams.get('request_uri_method')).toBe('post');
    expect(new Date(data.expiresAt).getTime() - new Date(data.createdAt).getTime()).toBe(300_000);
    expect(data.dcApiRequest).toBeUndefined();
  });

  it('generates payloadState when absent and honours expiresInSeconds', async () => {
    const data = (await create({ expiresInSeconds: 42 })).json().data;
    expect(data.payloadState.length).toBeGreaterThanOrEqual(22);
    expect(new Date(data.expiresAt).getTime() - new Date(data.createdAt).getTime()).toBe(42_000);
  });

  it('requires expectedOrigins for DC API modes and refuses them for redirect modes', async () => {
    const before = await sessionCount();
    const missing = await create({ responseMode: 'dc_api' });
    expect(missing.statusCode).toBe(400);
    expect(missing.json()).toMatchObject({ code: 'EXPECTED_ORIGINS_REQUIRED', details: [{ path: '/expectedOrigins' }] });
    expect((await create({ responseMode: 'dc_api.jwt' })).json().code).toBe('EXPECTED_ORIGINS_REQUIRED');
    for (const mode of ['direct_post', 'direct_post.jwt']) {
      const refused = await create({ responseMode: mode, expectedOrigins: ['https://rp.example'] });
      expect(refused.statusCode).toBe(400);
      expect(refused.json().code).toBe('EXPECTED_ORIGINS_NOT_ALLOWED');
    }
    expect((await create({ responseMode: 'dc_api', expectedOrigins: ['https://rp.example/path'] })).json().code).toBe('VALIDATION_FAILED');
    expect(await sessionCount()).toBe(before);
  });

  it('answers the DC API request with protocol openid4vp-v1-signed', async () => {
    const data = (await create({ responseMode: 'dc_api', expectedOrigins: ['https://rp.example'] })).json().data;
    expect(data.dcApiRequest.protocol).toBe('openid4vp-v1-signed');
    expect(data.dcApiRequest.data.request.split('.')).toHaveLength(3);
    expect(data.expectedOrigins).toEqual(['https://rp.example']);
  });

  it('answers 400 INVALID_DCQL with paths into the body', async () => {
    const { combine: _c, ...noCombine } = sdJwtQuery();
    const response = await create({ dcql: noCombine });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ code: 'INVALID_DCQL', details: [{ path: '/dcql/combine' }] });
  });

  it('answers 404 VERIFIER_NOT_FOUND for an unknown verifier or one of another organisation', async () => {
    expect((await create({}, 'nobody')).json()).toMatchObject({ statusCode: 404, code: 'VERIFIER_NOT_FOUND' });
    await send('POST', `/v1/orgs/${OTHER_ORG}/oid4vp/verifier`, { verifierId: 'theirs' }, OTHER_ORG);
    expect((await create({}, 'theirs')).statusCode).toBe(404);
  });

  it('refuses unknown signer methods and prefixes, and malformed options, as schema failures', async () => {
    const before = await sessionCount();
    const cases = [
      { requestSigner: { method: 'RSA' } },
      { requestSigner: { method: 'X509_P256', clientIdPrefix: 'x509_san_uri' } },
      { responseMode: 'fragment' },
      { expiresInSeconds: 0 },
      { expiresInSeconds: 86401 },
      { transactionData: [{ type: 'x' }] },
      { redirectUri: 'not a uri' },
      { unknownField: true },
    ];
    for (const payload of cases) {
      const response = await create(payload);
      expect(response.statusCode, JSON.stringify(payload)).toBe(400);
      expect(response.json().code).toBe('VALIDATION_FAILED');
    }
    expect((await send('POST', `/v1/orgs/${ORG}/oid4vp/presentation`, { dcql: sdJwtQuery(), responseMode: 'direct_post' })).statusCode).toBe(400);
    expect(await sessionCount()).toBe(before);
  });

  it('refuses transaction data naming unknown credential queries and redirectUri in DC API modes', async () => {
    const td = await create({ transactionData: [{ type: 'payment', credential_ids: ['nope'] }] });
    expect(td.json()).toMatchObject({ statusCode: 400, code: 'VALIDATION_FAILED', details: [{ path: '/transactionData/0/credential_ids/0' }] });
    const redirect = await create({ responseMode: 'dc_api', expectedOrigins: ['https://rp.example'], redirectUri: 'https://rp.example/done' });
    expect(redirect.json()).toMatchObject({ statusCode: 400, details: [{ path: '/redirectUri' }] });
  });

  it('signs each signer with a stable client id per organisation', async () => {
    const did = (await create({ requestSigner: { method: 'DID', clientIdPrefix: 'x509_hash' } })).json().data;
    expect(did.clientId).toMatch(/^decentralized_identifier:did:jwk:/);
    const did2 = (await create({ requestSigner: { method: 'DID' } })).json().data;
    expect(did2.clientId).toBe(did.clientId);
    const san = (await create({ requestSigner: { method: 'X509_ED25519', clientIdPrefix: 'x509_san_dns' } })).json().data;
    expect(san.clientId).toBe('x509_san_dns:verifier.tessera.test');
    await send('POST', `/v1/orgs/${OTHER_ORG}/oid4vp/verifier`, { verifierId: 'desk' }, OTHER_ORG);
    const other = (await create({}, 'desk', OTHER_ORG)).json().data;
    const mine = (await create({})).json().data;
    expect(other.clientId).not.toBe(mine.clientId);
  });
});
