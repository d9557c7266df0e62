import { createHash } from 'node:crypto';
import { describe, expect } from 'vitest';
import type { CreatedPresentation } from '@tessera/contracts';
import { sdJwtQuery } from '../support/dcql-queries.js';
import type { E2e } from '../support/e2e.js';
import { e2eTest } from '../support/fixtures.js';
import { buildResponse, presentPid, requestFacts, resolveRedirectRequest, submitResponse } from '../support/holder.js';
import { issuePid, newHolder } from '../support/issuers.js';
import { oid4vpPath, type MemberCall } from '../support/management.js';
import { storedResults, storedSession } from '../support/stored-rows.js';

// Response Code (OpenID4VP 1.0 §8.2, Security Considerations "Session Fixation"):
// after a verified same-device answer the wallet is sent to the session's
// redirectUri with a fresh response_code; the relying party presents it when it
// reads the result, and a wrong one gets 403 with no presentation data. Real HTTP:
// the wallet library resolves, builds and posts; the relying party reads through
// the management API.
const test = e2eTest();

const CODE = /^[A-Za-z0-9_-]{43}$/; // 256 bits, base64url without padding

/** A wallet answers the session with a valid SD-JWT VC; returns the endpoint's answer. */
async function answer(e: E2e, session: CreatedPresentation, options: { nonce?: string } = {}) {
  const holder = await newHolder();
  const resolved = await resolveRedirectRequest(e.wallet, session.authorizationRequestUri!);
  const presentation = await presentPid(await issuePid(e.issuer, holder), holder, requestFacts(resolved), options);
  return submitResponse(e.wallet, resolved, await buildResponse(e.wallet, resolved, { pid: [presentation] }));
}

function codeOf(redirectUri: string): string {
  const code = new URL(redirectUri).searchParams.get('response_code');
  if (!code) throw new Error(`no response_code in ${redirectUri}`);
  return code;
}

const readResult = (api: MemberCall, id: string, responseCode?: string) =>
  api(
    'GET',
    `${oid4vpPath()}/verifier-presentation-response?verificationPresentationId=${encodeURIComponent(id)}${responseCode !== undefined ? `&responseCode=${encodeURIComponent(responseCode)}` : ''}`,
  );

describe('the redirect after a verified same-device answer', () => {
  test.for(['direct_post', 'direct_post.jwt'])(
    '%s: carries a fresh response_code, keeping the redirectUri’s query and fragment',
    async (responseMode, { e2e: e }) => {
      const redirectUri = 'https://rp.tessera.test/done?order=42&note=a%20b#step-2';
      const first = await e.createSession({ dcql: sdJwtQuery(), responseMode, redirectUri });
      const second = await e.createSession({ dcql: sdJwtQuery(), responseMode, redirectUri });
      const answers = [await answer(e, first), await answer(e, second)];
      const codes = answers.map((answered) => {
        expect(answered.status).toBe(200);
        const uri = String(answered.body.redirect_uri);
        expect(uri).toMatch(
          /^https:\/\/rp\.tessera\.test\/done\?order=42&note=a%20b&response_code=[A-Za-z0-9_-]{43}#step-2$/,
        );
        return codeOf(uri);
      });
      expect(codes[0]).toMatch(CODE);
      expect(codes[0]).not.toBe(codes[1]);
    },
  );

  test('stores only a SHA-256 hash of the code, never the code', async ({ e2e: e, harness }) => {
    const session = await e.createSession({
      dcql: sdJwtQuery(),
      responseMode: 'direct_post',
      redirectUri: 'https://rp.tessera.test/done',
    });
    const code = codeOf(String((await answer(e, session)).body.redirect_uri));
    // Only its hash is stored.
    const row = await storedSession(harness.testDb.database, session.id);
    expect(row!.responseCodeHash).toBe(createHash('sha256').update(code).digest('base64url'));
    const [result] = await storedResults(harness.testDb.database, session.id);
    expect(JSON.stringify([row, result])).not.toContain(code);
  });

  test('a session without redirectUri answers {} as before', async ({ e2e: e }) => {
    const session = await e.createSession({ dcql: sdJwtQuery(), responseMode: 'direct_post' });
    expect(await answer(e, session)).toEqual({ status: 200, body: {} });
  });

  test('a redirectUri that already has a response_code parameter is refused at creation (400)', async ({
    api,
    desk,
  }) => {
    const created = await api('POST', `${oid4vpPath()}/presentation?verifierId=${desk}`, {
      dcql: sdJwtQuery(),
      responseMode: 'direct_post',
      redirectUri: 'https://rp.tessera.test/done?response_code=mine',
    });
    expect(created.status).toBe(400);
    expect(created.body).toMatchObject({ code: 'VALIDATION_FAILED', details: [{ path: '/redirectUri' }] });
  });
});

describe('reading the result with responseCode', () => {
  test('the right code, or none, answers the presentation; a wrong one is 403 RESPONSE_CODE_MISMATCH with no presentation data', async ({
    e2e: e,
    api,
  }) => {
    const session = await e.createSession({
      dcql: sdJwtQuery(),
      responseMode: 'direct_post',
      redirectUri: 'https://rp.tessera.test/done',
    });
    const other = await e.createSession({
      dcql: sdJwtQuery(),
      responseMode: 'direct_post',
      redirectUri: 'https://rp.tessera.test/done',
    });
    const code = codeOf(String((await answer(e, session)).body.redirect_uri));
    const otherCode = codeOf(String((await answer(e, other)).body.redirect_uri));

    const right = await readResult(api, session.id, code);
    expect(right.status).toBe(200);
    expect(right.body.data).toMatchObject({
      id: session.id,
      state: 'ResponseVerified',
      presentations: [expect.objectContaining({ claims: expect.objectContaining({ given_name: 'Erika' }) })],
    });
    const none = await readResult(api, session.id);
    expect(none.status).toBe(200);
    expect(none.body.data).toEqual(right.body.data);

    for (const wrong of [otherCode, `${code.slice(0, -1)}${code.endsWith('A') ? 'B' : 'A'}`, 'x']) {
      const refused = await readResult(api, session.id, wrong);
      expect(refused.status).toBe(403);
      expect(refused.body).toEqual({
        statusCode: 403,
        error: 'Forbidden',
        code: 'RESPONSE_CODE_MISMATCH',
        message: expect.any(String),
      });
      expect(JSON.stringify(refused.body)).not.toContain('Erika');
    }
  });

  test('the code is not consumed: reading again with it answers the same (idempotent reads, safe retries)', async ({
    e2e: e,
    api,
  }) => {
    const session = await e.createSession({
      dcql: sdJwtQuery(),
      responseMode: 'direct_post',
      redirectUri: 'https://rp.tessera.test/done',
    });
    const code = codeOf(String((await answer(e, session)).body.redirect_uri));
    const first = await readResult(api, session.id, code);
    const again = await readResult(api, session.id, code);
    expect([first.status, again.status]).toEqual([200, 200]);
    expect(again.body.data).toEqual(first.body.data);
  });

  test('a session that issued no code (no redirectUri, or not verified) refuses any responseCode with 403', async ({
    e2e: e,
    api,
  }) => {
    const plain = await e.createSession({ dcql: sdJwtQuery(), responseMode: 'direct_post' });
    await answer(e, plain);
    expect((await readResult(api, plain.id, 'any-code')).body.code).toBe('RESPONSE_CODE_MISMATCH');
    expect((await readResult(api, plain.id)).status).toBe(200);

    const failed = await e.createSession({
      dcql: sdJwtQuery(),
      responseMode: 'direct_post',
      redirectUri: 'https://rp.tessera.test/done',
    });
    const refused = await answer(e, failed, { nonce: 'not-the-session-nonce' });
    expect(refused.status).toBe(400);
    expect(refused.body).not.toHaveProperty('redirect_uri');
    expect((await readResult(api, failed.id, 'any-code')).status).toBe(403);
    expect((await readResult(api, failed.id)).body.code).toBe('PRESENTATION_NOT_VERIFIED');
  });
});
