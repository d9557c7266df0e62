import { CompactEncrypt, exportJWK, generateKeyPair, importJWK } from 'jose';
import { describe, expect } from 'vitest';
import { expectSessionUnchanged, invalidRequest, validPidToken } from '../support/answers.js';
import { sdJwtQuery } from '../support/dcql-queries.js';
import { e2eTest } from '../support/fixtures.js';
import { buildResponse, requestFacts, submitResponse } from '../support/holder.js';

const ORIGIN = 'https://rp.tessera.test';
const test = e2eTest();

describe('wallet endpoint: junk is refused and the session stays open', () => {
  test('wrong state, unparseable vp_token, missing fields', async ({ e2e: e, sessionEvents }) => {
    const session = await e.createSession({ dcql: sdJwtQuery(), responseMode: 'direct_post' });
    const { vpToken } = await validPidToken(e, session);
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
      expect(await e.postForm(session.responseUri!, fields)).toEqual({ status: 400, body: invalidRequest });
    }
    await expectSessionUnchanged(e, sessionEvents, session);
    // Still answerable by the real wallet afterwards.
    expect(
      (await e.postForm(session.responseUri!, { vp_token: JSON.stringify(vpToken), state: session.payloadState }))
        .status,
    ).toBe(200);
  });

  test('direct_post.jwt: an unencrypted response, a JWE for another key, and garbage are refused', async ({
    e2e: e,
    sessionEvents,
  }) => {
    const session = await e.createSession({ dcql: sdJwtQuery(), responseMode: 'direct_post.jwt' });
    const responseUri = session.responseUri!;
    const { resolved, vpToken } = await validPidToken(e, session);
    const sessionJwk = requestFacts(resolved).encryptionJwk!;
    expect(await e.postForm(responseUri, { vp_token: JSON.stringify(vpToken), state: session.payloadState })).toEqual({
      status: 400,
      body: invalidRequest,
    });
    // Another key under the session key's kid: the wallet endpoint cannot decrypt it.
    const other = await exportJWK((await generateKeyPair('ECDH-ES', { crv: 'P-256', extractable: true })).publicKey);
    const foreign = await new CompactEncrypt(
      new TextEncoder().encode(JSON.stringify({ vp_token: vpToken, state: session.payloadState })),
    )
      .setProtectedHeader({ alg: 'ECDH-ES', enc: 'A128GCM', kid: sessionJwk.kid! })
      .encrypt(await importJWK(other, 'ECDH-ES'));
    expect(await e.postForm(responseUri, { response: foreign })).toEqual({ status: 400, body: invalidRequest });
    expect(await e.postForm(responseUri, { response: 'not-a-jwe' })).toEqual({ status: 400, body: invalidRequest });
    // A JWE to the right key with the wrong state.
    const wrongState = await new CompactEncrypt(
      new TextEncoder().encode(JSON.stringify({ vp_token: vpToken, state: 'nope' })),
    )
      .setProtectedHeader({ alg: 'ECDH-ES', enc: 'A128GCM', kid: sessionJwk.kid! })
      .encrypt(await importJWK(sessionJwk, 'ECDH-ES'));
    expect(await e.postForm(responseUri, { response: wrongState })).toEqual({ status: 400, body: invalidRequest });
    await expectSessionUnchanged(e, sessionEvents, session);
  });

  test('unknown ids are 404, DC API sessions are refused here', async ({ e2e: e, sessionEvents }) => {
    expect(
      await e.postForm('https://verifier.tessera.test/oid4vp/authorization-responses/unknown', {
        error: 'access_denied',
      }),
    ).toEqual({ status: 404, body: invalidRequest });
    const dc = await e.createSession({ dcql: sdJwtQuery(), responseMode: 'dc_api', expectedOrigins: [ORIGIN] });
    const url = `https://verifier.tessera.test/oid4vp/authorization-responses/${dc.authorizationRequestId}`;
    expect(await e.postForm(url, { error: 'access_denied' })).toEqual({ status: 400, body: invalidRequest });
    await expectSessionUnchanged(e, sessionEvents, dc, 'RequestCreated');
  });

  test('a second response to a verified session is refused (400) and changes nothing', async ({ e2e: e }) => {
    const session = await e.createSession({ dcql: sdJwtQuery(), responseMode: 'direct_post' });
    const { resolved, vpToken } = await validPidToken(e, session);
    const built = await buildResponse(e.wallet, resolved, vpToken);
    expect((await submitResponse(e.wallet, resolved, built)).status).toBe(200);
    expect(await submitResponse(e.wallet, resolved, built)).toEqual({ status: 400, body: invalidRequest });
    expect(await e.postForm(session.responseUri!, { error: 'access_denied' })).toEqual({
      status: 400,
      body: invalidRequest,
    });
    expect((await e.readSession(session.id)).state).toBe('ResponseVerified');
    expect((await e.readResult(session.id)).status).toBe(200);
  });

  test('a response after expiry is refused; the session reads SESSION_EXPIRED', async ({ harness: h, e2e: e }) => {
    const session = await e.createSession({ dcql: sdJwtQuery(), responseMode: 'direct_post', expiresInSeconds: 5 });
    const { resolved, vpToken } = await validPidToken(e, session);
    const built = await buildResponse(e.wallet, resolved, vpToken);
    h.clock.offsetMs = 6000;
    try {
      expect(await submitResponse(e.wallet, resolved, built)).toEqual({ status: 400, body: invalidRequest });
      expect((await e.readSession(session.id)).error?.code).toBe('SESSION_EXPIRED');
    } finally {
      h.clock.offsetMs = 0;
    }
  });

  test('a wallet error answers 200 and ends the session with WALLET_ERROR', async ({ e2e: e, sessionEvents }) => {
    const session = await e.createSession({ dcql: sdJwtQuery(), responseMode: 'direct_post.jwt' });
    await validPidToken(e, session);
    expect(
      await e.postForm(session.responseUri!, {
        error: 'access_denied',
        error_description: 'The user declined.',
        state: session.payloadState,
      }),
    ).toEqual({ status: 200, body: {} });
    const record = await e.readSession(session.id);
    expect(record).toMatchObject({
      state: 'Error',
      error: { code: 'WALLET_ERROR', message: expect.stringContaining('access_denied') },
    });
    await sessionEvents.waitFor(session.id, 'Error');
  });
});

describe('wallet response endpoint input', () => {
  test('answers OAuth-shaped 400/415 for bodies it cannot read', async ({ harness: h }) => {
    const url = '/oid4vp/authorization-responses/unknown-id';
    const json = await h.call('POST', url, { body: [] });
    expect(json.status).toBe(400);
    expect(json.body).toEqual({ error: 'invalid_request', error_description: expect.any(String) });
    const text = await h.call('POST', url, { headers: { 'content-type': 'text/plain' }, body: 'vp_token=x' });
    expect(text.status).toBe(415);
    expect(text.body.error).toBe('invalid_request');
    const longState = await h.call('POST', url, {
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: `state=${'s'.repeat(600)}`,
    });
    expect(longState.status).toBe(400);
    expect(longState.body.error).toBe('invalid_request');
  });
});
