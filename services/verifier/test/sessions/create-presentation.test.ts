import { describe, expect } from 'vitest';
import { sdJwtQuery } from '../support/dcql-queries.js';
import { verifierTest } from '../support/fixtures.js';
import { ORG, OTHER_ORG } from '../support/management.js';

// `create(body, verifierId, org)`: a session of ORG's verifier `desk` from an SD-JWT VC query over direct_post unless told.
const test = verifierTest
  .extend(
    'create',
    { scope: 'file' },
    ({ api, desk }) =>
      (payload: Record<string, unknown>, verifierId = desk, org = ORG) =>
        api(
          'POST',
          `/v1/orgs/${org}/oid4vp/presentation?verifierId=${verifierId}`,
          { dcql: sdJwtQuery(), responseMode: 'direct_post', ...payload },
          { org },
        ),
  )
  .extend(
    'sessionCount',
    { scope: 'file' },
    ({ api }) =>
      async () =>
        (await api('GET', `/v1/orgs/${ORG}/oid4vp/verifier-presentation`)).body.data.totalItems as number,
  );

describe('create presentation (direct)', () => {
  test('answers 201 with the session and the request to hand the wallet; defaults to X509_P256 + x509_hash', async ({
    create,
  }) => {
    const response = await create({ payloadState: 'order-42', redirectUri: 'https://acme.example/done' });
    expect(response.status).toBe(201);
    const data = response.body.data;
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

  test('generates payloadState when absent and honours expiresInSeconds', async ({ create }) => {
    const data = (await create({ expiresInSeconds: 42 })).body.data;
    expect(data.payloadState.length).toBeGreaterThanOrEqual(22);
    expect(new Date(data.expiresAt).getTime() - new Date(data.createdAt).getTime()).toBe(42_000);
  });

  test('requires expectedOrigins for DC API modes and refuses them for redirect modes', async ({
    create,
    sessionCount,
  }) => {
    const before = await sessionCount();
    const missing = await create({ responseMode: 'dc_api' });
    expect(missing.status).toBe(400);
    expect(missing.body).toMatchObject({ code: 'EXPECTED_ORIGINS_REQUIRED', details: [{ path: '/expectedOrigins' }] });
    expect((await create({ responseMode: 'dc_api.jwt' })).body.code).toBe('EXPECTED_ORIGINS_REQUIRED');
    for (const mode of ['direct_post', 'direct_post.jwt']) {
      const refused = await create({ responseMode: mode, expectedOrigins: ['https://rp.example'] });
      expect(refused.status).toBe(400);
      expect(refused.body.code).toBe('EXPECTED_ORIGINS_NOT_ALLOWED');
    }
    expect((await create({ responseMode: 'dc_api', expectedOrigins: ['https://rp.example/path'] })).body.code).toBe(
      'VALIDATION_FAILED',
    );
    expect(await sessionCount()).toBe(before);
  });

  test('answers the DC API request with protocol openid4vp-v1-signed', async ({ create }) => {
    const data = (await create({ responseMode: 'dc_api', expectedOrigins: ['https://rp.example'] })).body.data;
    expect(data.dcApiRequest.protocol).toBe('openid4vp-v1-signed');
    expect(data.dcApiRequest.data.request.split('.')).toHaveLength(3);
    expect(data.expectedOrigins).toEqual(['https://rp.example']);
  });

  test('answers 400 INVALID_DCQL naming a trusted_authorities type other than aki, and creates nothing', async ({
    create,
    sessionCount,
  }) => {
    const before = await sessionCount();
    const query = sdJwtQuery();
    (query.credentials[0] as Record<string, unknown>).trusted_authorities = [
      { type: 'aki', values: ['s9tIpPmhxdiuNkHMEWNpYim8S8Y'] },
      { type: 'etsi_tl', values: ['https://lotl.example/tl.xml'] },
    ];
    const response = await create({ dcql: query });
    expect(response.status).toBe(400);
    expect(response.body).toMatchObject({
      code: 'INVALID_DCQL',
      details: [{ path: '/dcql/credentials/0/trusted_authorities/1/type' }],
    });
    expect(response.body.details[0].message).toContain('"etsi_tl" is not supported');
    expect(await sessionCount()).toBe(before);
  });

  test('answers 400 INVALID_DCQL with paths into the body', async ({ create }) => {
    const { combine: _c, ...noCombine } = sdJwtQuery();
    const response = await create({ dcql: noCombine });
    expect(response.status).toBe(400);
    expect(response.body).toMatchObject({ code: 'INVALID_DCQL', details: [{ path: '/dcql/combine' }] });
  });

  test('answers 404 VERIFIER_NOT_FOUND for an unknown verifier or one of another organisation', async ({
    api,
    create,
  }) => {
    expect((await create({}, 'nobody')).body).toMatchObject({ statusCode: 404, code: 'VERIFIER_NOT_FOUND' });
    await api('POST', `/v1/orgs/${OTHER_ORG}/oid4vp/verifier`, { verifierId: 'theirs' }, { org: OTHER_ORG });
    expect((await create({}, 'theirs')).status).toBe(404);
  });

  test('refuses unknown signer methods and prefixes, and malformed options, as schema failures', async ({
    api,
    create,
    sessionCount,
  }) => {
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
      expect(response.status, JSON.stringify(payload)).toBe(400);
      expect(response.body.code).toBe('VALIDATION_FAILED');
    }
    expect(
      (await api('POST', `/v1/orgs/${ORG}/oid4vp/presentation`, { dcql: sdJwtQuery(), responseMode: 'direct_post' }))
        .status,
    ).toBe(400);
    expect(await sessionCount()).toBe(before);
  });

  test('refuses transaction data naming unknown credential queries and redirectUri in DC API modes', async ({
    create,
  }) => {
    const td = await create({ transactionData: [{ type: 'payment', credential_ids: ['nope'] }] });
    expect(td.body).toMatchObject({
      statusCode: 400,
      code: 'VALIDATION_FAILED',
      details: [{ path: '/transactionData/0/credential_ids/0' }],
    });
    const redirect = await create({
      responseMode: 'dc_api',
      expectedOrigins: ['https://rp.example'],
      redirectUri: 'https://rp.example/done',
    });
    expect(redirect.body).toMatchObject({ statusCode: 400, details: [{ path: '/redirectUri' }] });
  });

  test('signs each signer with a stable client id per organisation', async ({ api, create }) => {
    const did = (await create({ requestSigner: { method: 'DID', clientIdPrefix: 'x509_hash' } })).body.data;
    expect(did.clientId).toMatch(/^decentralized_identifier:did:jwk:/);
    const did2 = (await create({ requestSigner: { method: 'DID' } })).body.data;
    expect(did2.clientId).toBe(did.clientId);
    const san = (await create({ requestSigner: { method: 'X509_ED25519', clientIdPrefix: 'x509_san_dns' } })).body.data;
    expect(san.clientId).toBe('x509_san_dns:verifier.tessera.test');
    await api('POST', `/v1/orgs/${OTHER_ORG}/oid4vp/verifier`, { verifierId: 'desk' }, { org: OTHER_ORG });
    const other = (await create({}, 'desk', OTHER_ORG)).body.data;
    const mine = (await create({})).body.data;
    expect(other.clientId).not.toBe(mine.clientId);
  });
});
