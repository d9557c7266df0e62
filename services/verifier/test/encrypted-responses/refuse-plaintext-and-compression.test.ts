import { describe, expect } from 'vitest';
import type { CreatedPresentation, PresentationSession } from '@tessera/contracts';
import { sdJwtQuery } from '../support/dcql-queries.js';
import type { E2e } from '../support/e2e.js';
import { e2eTest } from '../support/fixtures.js';
import { presentPid, requestFacts, resolveDcApiRequest, resolveRedirectRequest } from '../support/holder.js';
import { issuePid, newHolder } from '../support/issuers.js';
import { buildJwe } from './build-jwe.js';

// Encrypted means encrypted: a session whose response mode is encrypted
// (dc_api.jwt, direct_post.jwt) refuses a plaintext answer and a compressed JWE
// (`zip`), and stays open, so the real wallet's encrypted answer still verifies.
// The wallet side is real HTTP against the listening service; the JWEs are written
// by hand (build-jwe.ts), the SD-JWT VCs with jose.
const ORIGIN = 'https://rp.tessera.test';
const test = e2eTest();

/** A DC API session, the request as the browser hands it to the wallet, and a valid vp_token for it. */
async function dcApiSession(e: E2e) {
  const session = await e.createSession({ dcql: sdJwtQuery(), responseMode: 'dc_api.jwt', expectedOrigins: [ORIGIN] });
  const resolved = await resolveDcApiRequest(e.wallet, session.dcApiRequest!.data, ORIGIN);
  const facts = requestFacts(resolved);
  const holder = await newHolder();
  const vpToken = { pid: [await presentPid(await issuePid(e.issuer, holder), holder, facts, { origin: ORIGIN })] };
  return { session, encryptionJwk: facts.encryptionJwk!, vpToken };
}

async function redirectSession(e: E2e) {
  const session = await e.createSession({ dcql: sdJwtQuery(), responseMode: 'direct_post.jwt' });
  const resolved = await resolveRedirectRequest(e.wallet, session.authorizationRequestUri!);
  const facts = requestFacts(resolved);
  const holder = await newHolder();
  const vpToken = { pid: [await presentPid(await issuePid(e.issuer, holder), holder, facts)] };
  return { session, encryptionJwk: facts.encryptionJwk!, vpToken };
}

const answerDcApi = (e: E2e, session: CreatedPresentation, authorizationResponse: Record<string, unknown>) =>
  e.verifyDcApi({ verificationSessionId: session.id, authorizationResponse, origin: ORIGIN });

async function expectOpen(e: E2e, session: CreatedPresentation, state: PresentationSession['state']) {
  const record = await e.readSession(session.id);
  expect(record.state).toBe(state);
  expect(record.error).toBeUndefined();
}

describe('dc_api.jwt takes only encrypted answers', () => {
  test('a plaintext vp_token or id_token is 400 RESPONSE_NOT_ENCRYPTED (platform body), the session stays open, and the encrypted answer then verifies', async ({
    e2e: e,
  }) => {
    const { session, encryptionJwk, vpToken } = await dcApiSession(e);
    for (const authorizationResponse of [{ vp_token: vpToken }, { id_token: vpToken }]) {
      const refused = await answerDcApi(e, session, authorizationResponse);
      expect(refused.status).toBe(400);
      expect(refused.body).toMatchObject({
        statusCode: 400,
        error: 'Bad Request',
        code: 'RESPONSE_NOT_ENCRYPTED',
        message: expect.stringContaining('dc_api.jwt'),
      });
      expect(refused.body.data).toBeUndefined();
      await expectOpen(e, session, 'RequestCreated');
    }
    const verified = await answerDcApi(e, session, {
      response: buildJwe({ recipientJwk: encryptionJwk, payload: { vp_token: vpToken } }),
    });
    expect(verified.status, JSON.stringify(verified.body)).toBe(200);
    expect(verified.body.data).toMatchObject({
      id: session.id,
      state: 'ResponseVerified',
      presentations: [expect.objectContaining({ credentialQueryId: 'pid' })],
    });
  });

  test('a wallet error may still come in plaintext (it carries nothing to protect)', async ({ e2e: e }) => {
    const { session } = await dcApiSession(e);
    const answered = await answerDcApi(e, session, { error: 'access_denied' });
    expect(answered.status).toBe(200);
    expect(answered.body.data).toMatchObject({ state: 'Error', error: { code: 'WALLET_ERROR' } });
  });

  test('a plain dc_api session still takes the plaintext answer', async ({ e2e: e }) => {
    const session = await e.createSession({ dcql: sdJwtQuery(), responseMode: 'dc_api', expectedOrigins: [ORIGIN] });
    const resolved = await resolveDcApiRequest(e.wallet, session.dcApiRequest!.data, ORIGIN);
    const holder = await newHolder();
    const vpToken = {
      pid: [await presentPid(await issuePid(e.issuer, holder), holder, requestFacts(resolved), { origin: ORIGIN })],
    };
    const answered = await answerDcApi(e, session, { vp_token: vpToken });
    expect(answered.status).toBe(200);
    expect(answered.body.data.state).toBe('ResponseVerified');
  });
});

describe('compressed JWEs (zip) are refused like undecryptable ones', () => {
  test('dc_api.jwt: a JWE with zip is 400 DECRYPTION_FAILED, the session stays open; the same JWE without zip verifies', async ({
    e2e: e,
  }) => {
    const { session, encryptionJwk, vpToken } = await dcApiSession(e);
    const zipped = buildJwe({ recipientJwk: encryptionJwk, payload: { vp_token: vpToken }, zip: 'DEF' });
    const refused = await answerDcApi(e, session, { response: zipped });
    expect(refused.status).toBe(400);
    expect(refused.body).toMatchObject({
      statusCode: 400,
      code: 'DECRYPTION_FAILED',
      message: expect.stringContaining('compressed'),
    });
    await expectOpen(e, session, 'RequestCreated');
    const verified = await answerDcApi(e, session, {
      response: buildJwe({ recipientJwk: encryptionJwk, payload: { vp_token: vpToken } }),
    });
    expect(verified.status).toBe(200);
    expect(verified.body.data.state).toBe('ResponseVerified');
  });

  test('direct_post.jwt: plaintext and a JWE with zip are both 400 invalid_request, the session stays open; the JWE without zip verifies', async ({
    e2e: e,
  }) => {
    const { session, encryptionJwk, vpToken } = await redirectSession(e);
    const responseUri = session.responseUri!;
    const payload = { vp_token: vpToken, state: session.payloadState };
    const plaintext = await e.postForm(responseUri, { vp_token: JSON.stringify(vpToken), state: session.payloadState });
    expect(plaintext).toEqual({
      status: 400,
      body: { error: 'invalid_request', error_description: expect.stringContaining('encrypted') },
    });
    const zipped = await e.postForm(responseUri, {
      response: buildJwe({ recipientJwk: encryptionJwk, payload, zip: 'DEF', enc: 'A256GCM' }),
    });
    expect(zipped).toEqual({
      status: 400,
      body: { error: 'invalid_request', error_description: expect.stringContaining('compressed') },
    });
    await expectOpen(e, session, 'RequestUriRetrieved');
    const verified = await e.postForm(responseUri, {
      response: buildJwe({ recipientJwk: encryptionJwk, payload, enc: 'A256GCM' }),
    });
    expect(verified).toEqual({ status: 200, body: {} });
    expect((await e.readSession(session.id)).state).toBe('ResponseVerified');
  });
});
