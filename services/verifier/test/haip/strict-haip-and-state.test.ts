import { decodeJwt } from 'jose';
import { describe, expect } from 'vitest';
import { sdJwtQuery } from '../support/dcql-queries.js';
import { harnessTest } from '../support/fixtures.js';
import { ORG, type MemberCall } from '../support/management.js';

// Two gaps of the HAIP 1.0 / OpenID4VP 1.0 audit (README, "HAIP 1.0 and OpenID4VP 1.0,
// audited"), closed: a verifier can be held to HAIP (`strictHaip`: encrypted response
// modes, X509_P256 under x509_hash — HAIP 1.0 §5, §5.1, §5.2), and a caller's
// `payloadState` is the answer's only binding when a query does not require holder
// binding, so it must be URL-safe and carry at least 128 bits (OpenID4VP 1.0 §5.2, §5.3).
const V = `/v1/orgs/${ORG}/oid4vp`;
const ORIGIN = 'https://shop.example';

const test = harnessTest().extend('strict', { scope: 'file' }, async ({ api }) => {
  const created = await api('POST', `${V}/verifier`, { verifierId: 'haip-desk', strictHaip: true });
  expect(created.status, created.raw).toBe(201);
  return 'haip-desk';
});

const create = (api: MemberCall, verifierId: string, body: Record<string, unknown>) =>
  api('POST', `${V}/presentation?verifierId=${verifierId}`, { dcql: sdJwtQuery(), ...body });

/** The SD-JWT query with holder binding not required. */
function unboundQuery() {
  const query = sdJwtQuery();
  (query.credentials[0] as Record<string, unknown>).require_cryptographic_holder_binding = false;
  return query;
}

describe('a strictHaip verifier', () => {
  test('makes HAIP requests: direct_post.jwt or dc_api.jwt, signed with X509_P256 under x509_hash', async ({
    harness: h,
    api,
    strict,
  }) => {
    const redirect = await create(api, strict, { responseMode: 'direct_post.jwt' });
    expect(redirect.status, redirect.raw).toBe(201);
    expect(redirect.body.data.clientId).toMatch(/^x509_hash:/);
    const requestObject = decodeJwt(
      (await h.call('GET', `/oid4vp/authorization-requests/${redirect.body.data.authorizationRequestId}`)).raw,
    );
    expect(requestObject.response_mode).toBe('direct_post.jwt');
    const dcApi = await create(api, strict, { responseMode: 'dc_api.jwt', expectedOrigins: [ORIGIN] });
    expect(dcApi.status, dcApi.raw).toBe(201);
  });

  test('refuses what HAIP does not allow with 400 NOT_HAIP_COMPLIANT, one details entry per problem', async ({
    api,
    strict,
  }) => {
    const cases: Array<[Record<string, unknown>, string[]]> = [
      [{ responseMode: 'direct_post' }, ['/responseMode']],
      [{ responseMode: 'dc_api', expectedOrigins: [ORIGIN] }, ['/responseMode']],
      [{ responseMode: 'direct_post.jwt', requestSigner: { method: 'DID' } }, ['/requestSigner/method']],
      [{ responseMode: 'direct_post.jwt', requestSigner: { method: 'X509_ED25519' } }, ['/requestSigner/method']],
      [
        { responseMode: 'direct_post', requestSigner: { method: 'X509_P256', clientIdPrefix: 'x509_san_dns' } },
        ['/responseMode', '/requestSigner/clientIdPrefix'],
      ],
    ];
    const before = (await api('GET', `${V}/verifier-presentation?publicVerifierId=${strict}`)).body.data.totalItems;
    for (const [body, paths] of cases) {
      const response = await create(api, strict, body);
      expect(response.status, JSON.stringify(body)).toBe(400);
      expect(response.body.code).toBe('NOT_HAIP_COMPLIANT');
      expect(response.body.details.map((detail: { path: string }) => detail.path)).toEqual(paths);
    }
    expect((await api('GET', `${V}/verifier-presentation?publicVerifierId=${strict}`)).body.data.totalItems).toBe(
      before,
    );
  });

  test('other verifiers keep every response mode and signer', async ({ api, desk }) => {
    const plain = await create(api, desk, { responseMode: 'direct_post', requestSigner: { method: 'DID' } });
    expect(plain.status, plain.raw).toBe(201);
  });
});

describe('payloadState', () => {
  test('must be URL-safe ASCII (it is sent as the OAuth state)', async ({ api, desk }) => {
    for (const payloadState of ['order 42', 'order/42', 'bestellung-ä', '']) {
      const response = await create(api, desk, { responseMode: 'direct_post', payloadState });
      expect(response.status, payloadState).toBe(400);
      expect(response.body.code).toBe('VALIDATION_FAILED');
    }
    expect((await create(api, desk, { responseMode: 'direct_post', payloadState: 'order-42.v1~x_y' })).status).toBe(
      201,
    );
  });

  test('carries at least 128 bits when a query does not require holder binding (the answer’s only binding)', async ({
    api,
    desk,
  }) => {
    const short = await api('POST', `${V}/presentation?verifierId=${desk}`, {
      dcql: unboundQuery(),
      responseMode: 'direct_post',
      payloadState: 'order-42',
    });
    expect(short.status).toBe(400);
    expect(short.body).toMatchObject({ code: 'VALIDATION_FAILED', details: [{ path: '/payloadState' }] });
    const random = 'Qm9vb29vb29vb29vb29vb29vb3Rz';
    expect(
      (
        await api('POST', `${V}/presentation?verifierId=${desk}`, {
          dcql: unboundQuery(),
          responseMode: 'direct_post',
          payloadState: random,
        })
      ).body.data.payloadState,
    ).toBe(random);
    // Generated when absent: 256 bits.
    const generated = await api('POST', `${V}/presentation?verifierId=${desk}`, {
      dcql: unboundQuery(),
      responseMode: 'direct_post',
    });
    expect(Buffer.from(generated.body.data.payloadState, 'base64url').length).toBeGreaterThanOrEqual(16);
    // With holder binding, or over the DC API (no state is sent), a short value is the caller's business.
    expect((await create(api, desk, { responseMode: 'direct_post', payloadState: 'order-42' })).status).toBe(201);
    expect(
      (
        await api('POST', `${V}/presentation?verifierId=${desk}`, {
          dcql: unboundQuery(),
          responseMode: 'dc_api',
          expectedOrigins: [ORIGIN],
          payloadState: 'order-42',
        })
      ).status,
    ).toBe(201);
  });
});
