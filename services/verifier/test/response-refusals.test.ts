import { CompactEncrypt, exportJWK, generateKeyPair, importJWK } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createE2e, type E2e } from './support/e2e.js';
import { listenToSessionEvents } from './support/events.js';
import { mdocQuery, sdJwtQuery } from './support/fixtures.js';
import { buildResponse, dcApiPayload, presentMdl, presentPid, requestFacts, resolveDcApiRequest, resolveRedirectRequest, submitResponse, type ResolvedRequest } from './support/holder.js';
import { issueMdl, issuePid, newHolder } from './support/issuers.js';

let e: E2e;
let listener: Awaited<ReturnType<typeof listenToSessionEvents>>;
beforeAll(async () => {
  e = await createE2e();
  listener = await listenToSessionEvents(e.h.connectPeer);
});
afterAll(async () => {
  await listener.close();
  await e.close();
});

const ORIGIN = 'https://rp.tessera.test';

/** A valid vp_token for the resolved request (SD-JWT VC), and the request it answers. */
async function validToken(session: any, origin?: string) {
  const holder = await newHolder();
  const resolved: ResolvedRequest = origin ? await resolveDcApiRequest(e.wallet, session.dcApiRequest.data, origin) : await resolveRedirectRequest(e.wallet, session.authorizationRequestUri);
  const vpToken = { pid: [await presentPid(await issuePid(e.issuer, holder), holder, requestFacts(resolved), origin ? { origin } : {})] };
  return { resolved, vpToken };
}

/** The session is as it was: still open, no error, nothing published beyond what was. */
async function expectUnchanged(session: any, state = 'RequestUriRetrieved') {
  const record = await e.readSession(session.id);
  expect(record.state).toBe(state);
  expect(record.error).toBeUndefined();
  expect(listener.events.filter((event) => event.id === session.id && (event.state === 'Error' || event.state === 'ResponseVerified'))).toEqual([]);
}

const invalidRequest = { error: 'invalid_request', error_description: expect.any(String) };

describe('wallet endpoint: junk is refused and the session stays open', () => {
  it('wrong state, unparseable vp_token, missing fields', async () => {
    const session = await e.createSession({ dcql: sdJwtQuery(), responseMode: 'direct_post' });
    const { vpToken } = await validToken(session);
    const junk: Array<Record<string, string>> = [
      { vp_token: JSON.stringify(vpToken), state: 'not-the-state' },
      { vp_token: JSON.stringify(vpToken) },
      { vp_token: 'not json', state: session.payloadState },
      { vp_token: '["an array"]', state: session.payloadState },
      { state: session.payloadState },
      { response: 'a.b.c.d.e', state: session.payloadState },
      { error: 'access_denied', state: 'not-the-state' },
    ];
    for (const fields of junk) {
      expect(await e.postForm(session.responseUri, fields)).toEqual({ status: 400, body: invalidRequest });
    }
    await expectUnchanged(session);
    // Still answerable by the real wallet afterwards.
    expect((await e.postForm(session.responseUri, { vp_token: JSON.stringify(vpToken), state: session.payloadState })).status).toBe(200);
  });

  it('direct_post.jwt: an unencrypted response, a JWE for another key, and garbage are refused', async () => {
    const session = await e.createSession({ dcql: sdJwtQuery(), responseMode: 'direct_post.jwt' });
    const { resolved, vpToken } = await validToken(session);
    const sessionJwk = requestFacts(resolved).encryptionJwk!;
    expect(await e.postForm(session.responseUri, { vp_token: JSON.stringify(vpToken), state: session.payloadState })).toEqual({ status: 400, body: invalidRequest });
    // Another key under the session key's kid: the wallet endpoint cannot decrypt it.
    const other = await exportJWK((await generateKeyPair('ECDH-ES', { crv: 'P-256', extractable: true })).publicKey);
    const foreign = await new CompactEncrypt(new TextEncoder().encode(JSON.stringify({ vp_token: vpToken, state: session.payloadState })))
      .setProtectedHeader({ alg: 'ECDH-ES', enc: 'A128GCM', kid: sessionJwk.kid! })
      .encrypt(await importJWK(other, 'ECDH-ES'));
    expect(await e.postForm(session.responseUri, { response: foreign })).toEqual({ status: 400, body: invalidRequest });
    expect(await e.postForm(session.responseUri, { response: 'not-a-jwe' })).toEqual({ status: 400, body: invalidRequest });
    // A JWE to the right key with the wrong state.
    const wrongState = await new CompactEncrypt(new TextEncoder().encode(JSON.stringify({ vp_token: vpToken, state: 'nope' })))
      .setProtectedHeader({ alg: 'ECDH-ES', enc: 'A128GCM', kid: sessionJwk.kid! })
      .encrypt(await importJWK(sessionJwk, 'ECDH-ES'));
    expect(await e.postForm(session.responseUri, { response: wrongState })).toEqual({ status: 400, body: invalidRequest });
    await expectUnchanged(session);
  });

  it('unknown ids are 404, DC API sessions are refused here', async () => {
    expect(await e.postForm('https://verifier.tessera.test/oid4vp/authorization-responses/unknown', { error: 'access_denied' })).toEqual({ status: 404, body: invalidRequest });
    const dc = await e.createSession({ dcql: sdJwtQuery(), responseMode: 'dc_api', expectedOrigins: [ORIGIN] });
    const url = `https://verifier.tessera.test/oid4vp/authorization-responses/${dc.authorizationRequestId}`;
    expect(await e.postForm(url, { error: 'access_denied' })).toEqual({ status: 400, body: invalidRequest });
    await expectUnchanged(dc, 'RequestCreated');
  });

  it('a second response to a verified session is refused (400) and changes nothing', async () => {
    const session = await e.createSession({ dcql: sdJwtQuery(), responseMode: 'direct_post' });
    const { resolved, vpToken } = await validToken(session);
    const built = await buildResponse(e.wallet, resolved, vpToken);
    expect((await submitResponse(e.wallet, resolved, built)).status).toBe(200);
    expect(await submitResponse(e.wallet, resolved, built)).toEqual({ status: 400, body: invalidRequest });
    expect(await e.postForm(session.responseUri, { error: 'access_denied' })).toEqual({ status: 400, body: invalidRequest });
    expect((await e.readSession(session.id)).state).toBe('ResponseVerified');
    expect((await e.readResult(session.id)).status).toBe(200);
  });

  it('a response after expiry is refused; the session reads SESSION_EXPIRED', async () => {
    const session = await e.createSession({ dcql: sdJwtQuery(), responseMode: 'direct_post', expiresInSeconds: 5 });
    const { resolved, vpToken } = await validToken(session);
    const built = await buildResponse(e.wallet, resolved, vpToken);
    e.h.clock.offsetMs = 6000;
    try {
      expect(await submitResponse(e.wallet, resolved, built)).toEqual({ status: 400, body: invalidRequest });
      expect((await e.readSession(session.id)).error.code).toBe('SESSION_EXPIRED');
    } finally {
      e.h.clock.offsetMs = 0;
    }
  });

  it('a wallet error answers 200 and ends the session with WALLET_ERROR', async () => {
    const session = await e.createSession({ dcql: sdJwtQuery(), responseMode: 'direct_post.jwt' });
    await validToken(session);
    expect(await e.postForm(session.responseUri, { error: 'access_denied', error_description: 'The user declined.', state: session.payloadState })).toEqual({ status: 200, body: {} });
    const record = await e.readSession(session.id);
    expect(record).toMatchObject({ state: 'Error', error: { code: 'WALLET_ERROR', message: expect.stringContaining('access_denied') } });
    await listener.waitFor(session.id, 'Error');
  });
});

describe('DC API endpoint', () => {
  const dc = (responseMode = 'dc_api', query: Record<string, unknown> = sdJwtQuery()) => e.createSession({ dcql: query, responseMode, expectedOrigins: [ORIGIN] });

  it('origin not expected → 400 ORIGIN_NOT_ALLOWED, session unchanged', async () => {
    const session = await dc();
    const { vpToken } = await validToken(session, ORIGIN);
    for (const origin of ['https://evil.tessera.test', `${ORIGIN}:443`, 'http://rp.tessera.test']) {
      const answered = await e.verifyDcApi({ verificationSessionId: session.id, authorizationResponse: { vp_token: vpToken }, origin });
      expect(answered.status).toBe(400);
      expect(answered.body.code).toBe('ORIGIN_NOT_ALLOWED');
    }
    await expectUnchanged(session, 'RequestCreated');
  });

  it('shapes other than vp_token / id_token / response / error → 400 VALIDATION_FAILED; undecryptable → DECRYPTION_FAILED; unchanged', async () => {
    const session = await dc('dc_api.jwt');
    const { vpToken } = await validToken(session, ORIGIN);
    for (const authorizationResponse of [{}, { vp_token: 'x' }, { vp_token: [1] }, { vp_token: vpToken, error: 'x' }, { something: 1 }, { response: 42 }]) {
      const answered = await e.verifyDcApi({ verificationSessionId: session.id, authorizationResponse, origin: ORIGIN });
      expect(answered.status).toBe(400);
      expect(answered.body.code).toBe('VALIDATION_FAILED');
    }
    const other = await exportJWK((await generateKeyPair('ECDH-ES', { crv: 'P-256', extractable: true })).publicKey);
    const foreign = await new CompactEncrypt(new TextEncoder().encode(JSON.stringify({ vp_token: vpToken }))).setProtectedHeader({ alg: 'ECDH-ES', enc: 'A128GCM' }).encrypt(await importJWK(other, 'ECDH-ES'));
    for (const response of [foreign, 'a.b.c.d.e']) {
      const answered = await e.verifyDcApi({ verificationSessionId: session.id, authorizationResponse: { response }, origin: ORIGIN });
      expect(answered.status).toBe(400);
      expect(answered.body.code).toBe('DECRYPTION_FAILED');
    }
    await expectUnchanged(session, 'RequestCreated');
  });

  // dc_api.jwt takes only an encrypted answer since round 2 (test/encrypted-responses/), so the alias is shown on dc_api.
  it('the spec’s id_token map is accepted as vp_token (dc_api, mdoc)', async () => {
    const session = await dc('dc_api', mdocQuery());
    const holder = await newHolder();
    const resolved = await resolveDcApiRequest(e.wallet, session.dcApiRequest.data, ORIGIN);
    // Unencrypted, so the handover carries no JWK thumbprint.
    const facts = { ...requestFacts(resolved), responseMode: 'dc_api' };
    const presentation = await presentMdl(await issueMdl(e.issuer, holder), holder, facts, { origin: ORIGIN });
    const answered = await e.verifyDcApi({ verificationSessionId: session.id, authorizationResponse: { id_token: { mdl: [presentation] } }, origin: ORIGIN });
    expect(answered.status).toBe(200);
    expect(answered.body.data.state).toBe('ResponseVerified');
  });

  it('a second response → 409 SESSION_CLOSED; 404 unknown/other org; 409 NOT_DC_API_SESSION; expired → SESSION_CLOSED', async () => {
    const session = await dc();
    const { resolved, vpToken } = await validToken(session, ORIGIN);
    const body = { verificationSessionId: session.id, authorizationResponse: dcApiPayload(await buildResponse(e.wallet, resolved, vpToken, ORIGIN)), origin: ORIGIN };
    expect((await e.verifyDcApi(body)).status).toBe(200);
    const again = await e.verifyDcApi(body);
    expect(again.status).toBe(409);
    expect(again.body.code).toBe('SESSION_CLOSED');
    expect((await e.readSession(session.id)).state).toBe('ResponseVerified');

    expect((await e.verifyDcApi({ ...body, verificationSessionId: '00000000-0000-4000-8000-000000000000' })).status).toBe(404);
    expect((await e.verifyDcApi({ ...body, verificationSessionId: 'nope' })).status).toBe(404);
    const otherOrg = await e.call('POST', '/v1/orgs/org-other/oid4vp/verify-authorization-response', body, { org: 'org-other' });
    expect(otherOrg.status).toBe(404);

    const redirect = await e.createSession({ dcql: sdJwtQuery(), responseMode: 'direct_post' });
    const notDc = await e.verifyDcApi({ ...body, verificationSessionId: redirect.id });
    expect(notDc.status).toBe(409);
    expect(notDc.body.code).toBe('NOT_DC_API_SESSION');

    const expiring = await e.createSession({ dcql: sdJwtQuery(), responseMode: 'dc_api', expectedOrigins: [ORIGIN], expiresInSeconds: 5 });
    e.h.clock.offsetMs = 6000;
    try {
      const late = await e.verifyDcApi({ ...body, verificationSessionId: expiring.id });
      expect(late.status).toBe(409);
      expect(late.body.code).toBe('SESSION_CLOSED');
      expect((await e.readSession(expiring.id)).error.code).toBe('SESSION_EXPIRED');
    } finally {
      e.h.clock.offsetMs = 0;
    }
  });

  it('a wallet error → 200 with state Error / WALLET_ERROR', async () => {
    const session = await dc();
    const answered = await e.verifyDcApi({ verificationSessionId: session.id, authorizationResponse: { error: 'access_denied' }, origin: ORIGIN });
    expect(answered.status).toBe(200);
    expect(answered.body.data).toEqual({ id: session.id, state: 'Error', error: { code: 'WALLET_ERROR', message: expect.any(String) } });
  });
});

describe('the first response wins', () => {
  it('several wallets answering one session at once: exactly one verifies, the others are refused, one event', async () => {
    const session = await e.createSession({ dcql: sdJwtQuery(), responseMode: 'direct_post' });
    const answers = await Promise.all(Array.from({ length: 6 }, () => validToken(session)));
    const results = await Promise.all(answers.map(({ vpToken }) => e.postForm(session.responseUri, { vp_token: JSON.stringify(vpToken), state: session.payloadState })));
    expect(results.filter((r) => r.status === 200)).toHaveLength(1);
    expect(results.filter((r) => r.status === 400 && r.body.error === 'invalid_request')).toHaveLength(5);
    await listener.waitFor(session.id, 'ResponseVerified');
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(listener.events.filter((event) => event.id === session.id && event.state === 'ResponseVerified')).toHaveLength(1);
  });

  it('over the DC API too: one 200, the rest 409 SESSION_CLOSED', async () => {
    const session = await e.createSession({ dcql: sdJwtQuery(), responseMode: 'dc_api', expectedOrigins: [ORIGIN] });
    const answers = await Promise.all(Array.from({ length: 6 }, () => validToken(session, ORIGIN)));
    const results = await Promise.all(answers.map(({ vpToken }) => e.verifyDcApi({ verificationSessionId: session.id, authorizationResponse: { vp_token: vpToken }, origin: ORIGIN })));
    expect(results.filter((r) => r.status === 200)).toHaveLength(1);
    expect(results.filter((r) => r.status === 409 && r.body.code === 'SESSION_CLOSED')).toHaveLength(5);
  });
});
