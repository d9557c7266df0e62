import { CompactEncrypt, exportJWK, generateKeyPair, importJWK } from 'jose';
import { describe, expect } from 'vitest';
import { expectSessionUnchanged, validPidToken } from '../support/answers.js';
import { mdocQuery, sdJwtQuery } from '../support/dcql-queries.js';
import { e2eTest } from '../support/fixtures.js';
import { buildResponse, dcApiPayload, presentMdl, requestFacts, resolveDcApiRequest } from '../support/holder.js';
import { issueMdl, newHolder } from '../support/issuers.js';
import { ORG, OTHER_ORG } from '../support/management.js';

const ORIGIN = 'https://rp.tessera.test';

// `dcSession(mode, query)`: a DC API session of the e2e setting expecting ORIGIN.
const test = e2eTest().extend(
  'dcSession',
  { scope: 'file' },
  ({ e2e }) =>
    (responseMode = 'dc_api', query: Record<string, unknown> = sdJwtQuery()) =>
      e2e.createSession({ dcql: query, responseMode, expectedOrigins: [ORIGIN] }),
);

describe('DC API endpoint', () => {
  test('origin not expected → 400 ORIGIN_NOT_ALLOWED, session unchanged', async ({
    e2e: e,
    sessionEvents,
    dcSession,
  }) => {
    const session = await dcSession();
    const { vpToken } = await validPidToken(e, session, ORIGIN);
    for (const origin of ['https://evil.tessera.test', `${ORIGIN}:443`, 'http://rp.tessera.test']) {
      const answered = await e.verifyDcApi({
        verificationSessionId: session.id,
        authorizationResponse: { vp_token: vpToken },
        origin,
      });
      expect(answered.status).toBe(400);
      expect(answered.body.code).toBe('ORIGIN_NOT_ALLOWED');
    }
    await expectSessionUnchanged(e, sessionEvents, session, 'RequestCreated');
  });

  test('shapes other than vp_token / id_token / response / error → 400 VALIDATION_FAILED; undecryptable → DECRYPTION_FAILED; unchanged', async ({
    e2e: e,
    sessionEvents,
    dcSession,
  }) => {
    const session = await dcSession('dc_api.jwt');
    const { vpToken } = await validPidToken(e, session, ORIGIN);
    for (const authorizationResponse of [
      {},
      { vp_token: 'x' },
      { vp_token: [1] },
      { vp_token: vpToken, error: 'x' },
      { something: 1 },
      { response: 42 },
    ]) {
      const answered = await e.verifyDcApi({
        verificationSessionId: session.id,
        authorizationResponse,
        origin: ORIGIN,
      });
      expect(answered.status).toBe(400);
      expect(answered.body.code).toBe('VALIDATION_FAILED');
    }
    const other = await exportJWK((await generateKeyPair('ECDH-ES', { crv: 'P-256', extractable: true })).publicKey);
    const foreign = await new CompactEncrypt(new TextEncoder().encode(JSON.stringify({ vp_token: vpToken })))
      .setProtectedHeader({ alg: 'ECDH-ES', enc: 'A128GCM' })
      .encrypt(await importJWK(other, 'ECDH-ES'));
    for (const response of [foreign, 'a.b.c.d.e']) {
      const answered = await e.verifyDcApi({
        verificationSessionId: session.id,
        authorizationResponse: { response },
        origin: ORIGIN,
      });
      expect(answered.status).toBe(400);
      expect(answered.body.code).toBe('DECRYPTION_FAILED');
    }
    await expectSessionUnchanged(e, sessionEvents, session, 'RequestCreated');
  });

  // dc_api.jwt takes only an encrypted answer (test/encrypted-responses/), so the alias is shown on dc_api.
  test('the spec’s id_token map is accepted as vp_token (dc_api, mdoc)', async ({ e2e: e, dcSession }) => {
    const session = await dcSession('dc_api', mdocQuery());
    const holder = await newHolder();
    const resolved = await resolveDcApiRequest(e.wallet, session.dcApiRequest!.data, ORIGIN);
    // Unencrypted, so the handover carries no JWK thumbprint.
    const facts = { ...requestFacts(resolved), responseMode: 'dc_api' };
    const presentation = await presentMdl(await issueMdl(e.issuer, holder), holder, facts, { origin: ORIGIN });
    const answered = await e.verifyDcApi({
      verificationSessionId: session.id,
      authorizationResponse: { id_token: { mdl: [presentation] } },
      origin: ORIGIN,
    });
    expect(answered.status).toBe(200);
    expect(answered.body.data.state).toBe('ResponseVerified');
  });

  test('a second response → 409 SESSION_CLOSED; 404 unknown/other org; 409 NOT_DC_API_SESSION; expired → SESSION_CLOSED', async ({
    harness: h,
    api,
    e2e: e,
    dcSession,
  }) => {
    const session = await dcSession();
    const { resolved, vpToken } = await validPidToken(e, session, ORIGIN);
    const body = {
      verificationSessionId: session.id,
      authorizationResponse: dcApiPayload(await buildResponse(e.wallet, resolved, vpToken, ORIGIN)),
      origin: ORIGIN,
    };
    expect((await e.verifyDcApi(body)).status).toBe(200);
    const again = await e.verifyDcApi(body);
    expect(again.status).toBe(409);
    expect(again.body.code).toBe('SESSION_CLOSED');
    expect((await e.readSession(session.id)).state).toBe('ResponseVerified');

    expect(
      (await e.verifyDcApi({ ...body, verificationSessionId: '00000000-0000-4000-8000-000000000000' })).status,
    ).toBe(404);
    expect((await e.verifyDcApi({ ...body, verificationSessionId: 'nope' })).status).toBe(404);
    const otherOrg = await api('POST', `/v1/orgs/${OTHER_ORG}/oid4vp/verify-authorization-response`, body, {
      org: OTHER_ORG,
    });
    expect(otherOrg.status).toBe(404);

    const redirect = await e.createSession({ dcql: sdJwtQuery(), responseMode: 'direct_post' });
    const notDc = await e.verifyDcApi({ ...body, verificationSessionId: redirect.id });
    expect(notDc.status).toBe(409);
    expect(notDc.body.code).toBe('NOT_DC_API_SESSION');

    const expiring = await e.createSession({
      dcql: sdJwtQuery(),
      responseMode: 'dc_api',
      expectedOrigins: [ORIGIN],
      expiresInSeconds: 5,
    });
    h.clock.offsetMs = 6000;
    try {
      const late = await e.verifyDcApi({ ...body, verificationSessionId: expiring.id });
      expect(late.status).toBe(409);
      expect(late.body.code).toBe('SESSION_CLOSED');
      expect((await e.readSession(expiring.id)).error?.code).toBe('SESSION_EXPIRED');
    } finally {
      h.clock.offsetMs = 0;
    }
  });

  test('a wallet error → 200 with state Error / WALLET_ERROR', async ({ e2e: e, dcSession }) => {
    const session = await dcSession();
    const answered = await e.verifyDcApi({
      verificationSessionId: session.id,
      authorizationResponse: { error: 'access_denied' },
      origin: ORIGIN,
    });
    expect(answered.status).toBe(200);
    expect(answered.body.data).toEqual({
      id: session.id,
      state: 'Error',
      error: { code: 'WALLET_ERROR', message: expect.any(String) },
    });
  });
});

// Malformed input is a schema failure: 400 VALIDATION_FAILED in the platform error body.
describe('verify-authorization-response input', () => {
  const url = `/v1/orgs/${ORG}/oid4vp/verify-authorization-response`;
  test.for([
    ['no body', undefined],
    ['missing origin', (id: string) => ({ verificationSessionId: id, authorizationResponse: {} })],
    ['missing authorizationResponse', (id: string) => ({ verificationSessionId: id, origin: ORIGIN })],
    [
      'authorizationResponse not an object',
      (id: string) => ({ verificationSessionId: id, authorizationResponse: 'vp', origin: ORIGIN }),
    ],
    [
      'origin with a path',
      (id: string) => ({ verificationSessionId: id, authorizationResponse: {}, origin: `${ORIGIN}/page` }),
    ],
    [
      'unknown field',
      (id: string) => ({ verificationSessionId: id, authorizationResponse: {}, origin: ORIGIN, extra: 1 }),
    ],
  ] as const)('%s → 400 VALIDATION_FAILED', async ([_name, body], { api, dcSession }) => {
    const session = await dcSession();
    const response = await api('POST', url, typeof body === 'function' ? body(session.id) : body);
    expect(response.status).toBe(400);
    expect(response.body).toMatchObject({ statusCode: 400, code: 'VALIDATION_FAILED' });
  });
});
