import { createHash } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { presentationResults, presentationSessions } from '../../src/db/schema.js';
import { createE2e, type E2e } from '../support/e2e.js';
import { sdJwtQuery } from '../support/fixtures.js';
import { buildResponse, presentPid, requestFacts, resolveRedirectRequest, submitResponse } from '../support/holder.js';
import { issuePid, newHolder } from '../support/issuers.js';

// Response Code (OpenID4VP 1.0 §8.2, Security Considerations "Session Fixation"):
// after a verified same-device answer the wallet is sent to the session's
// redirectUri with a fresh response_code; the relying party presents it when it
// reads the result, and a wrong one gets 403 with no presentation data. Real HTTP:
// the wallet library resolves, builds and posts; the relying party reads through
// the management API.
let e: E2e;
beforeAll(async () => {
  e = await createE2e();
});
afterAll(() => e?.close());

const CODE = /^[A-Za-z0-9_-]{43}$/; // 256 bits, base64url without padding

/** A wallet answers the session with a valid SD-JWT VC; returns the endpoint's answer. */
async function answer(session: any, options: { nonce?: string } = {}) {
  const holder = await newHolder();
  const resolved = await resolveRedirectRequest(e.wallet, session.authorizationRequestUri);
  const presentation = await presentPid(await issuePid(e.issuer, holder), holder, requestFacts(resolved), options);
  return submitResponse(e.wallet, resolved, await buildResponse(e.wallet, resolved, { pid: [presentation] }));
}

function codeOf(redirectUri: string): string {
  const code = new URL(redirectUri).searchParams.get('response_code');
  if (!code) throw new Error(`no response_code in ${redirectUri}`);
  return code;
}

const readResult = (id: string, responseCode?: string) =>
  e.call('GET', `/v1/orgs/org-acme/oid4vp/verifier-presentation-response?verificationPresentationId=${encodeURIComponent(id)}${responseCode !== undefined ? `&responseCode=${encodeURIComponent(responseCode)}` : ''}`);

describe('the redirect after a verified same-device answer', () => {
  it.each(['direct_post', 'direct_post.jwt'])('%s: carries a fresh response_code, keeping the redirectUri’s query and fragment', async (responseMode) => {
    const redirectUri = 'https://rp.tessera.test/done?order=42&note=a%20b#step-2';
    const first = await e.createSession({ dcql: sdJwtQuery(), responseMode, redirectUri });
    const second = await e.createSession({ dcql: sdJwtQuery(), responseMode, redirectUri });
    const answers = [await answer(first), await answer(second)];
    const codes = answers.map((answered) => {
      expect(answered.status).toBe(200);
      const uri = String(answered.body.redirect_uri);
      expect(uri).toMatch(/^https:\/\/rp\.tessera\.test\/done\?order=42&note=a%20b&response_code=[A-Za-z0-9_-]{43}#step-2$/);
      return codeOf(uri);
    });
    expect(codes[0]).toMatch(CODE);
    expect(codes[0]).not.toBe(codes[1]);
  });

  it('stores only a SHA-256 hash of the code, never the code', async () => {
    const session = await e.createSession({ dcql: sdJwtQuery(), responseMode: 'direct_post', redirectUri: 'https://rp.tessera.test/done' });
    const code = codeOf(String((await answer(session)).body.redirect_uri));
    const db = e.h.testDb.database.db;
    const [row] = await db.select().from(presentationSessions).where(eq(presentationSessions.id, session.id));
    expect(row!.responseCodeHash).toBe(createHash('sha256').update(code).digest('base64url'));
    const [result] = await db.select().from(presentationResults).where(eq(presentationResults.sessionId, session.id));
    expect(JSON.stringify([row, result])).not.toContain(code);
  });

  it('a session without redirectUri answers {} as before', async () => {
    const session = await e.createSession({ dcql: sdJwtQuery(), responseMode: 'direct_post' });
    expect(await answer(session)).toEqual({ status: 200, body: {} });
  });

  it('a redirectUri that already has a response_code parameter is refused at creation (400)', async () => {
    const created = await e.call('POST', '/v1/orgs/org-acme/oid4vp/presentation?verifierId=desk', { dcql: sdJwtQuery(), responseMode: 'direct_post', redirectUri: 'https://rp.tessera.test/done?response_code=mine' });
    expect(created.status).toBe(400);
    expect(created.body).toMatchObject({ code: 'VALIDATION_FAILED', details: [{ path: '/redirectUri' }] });
  });
});

describe('reading the result with responseCode', () => {
  it('the right code, or none, answers the presentation; a wrong one is 403 RESPONSE_CODE_MISMATCH with no presentation data', async () => {
    const session = await e.createSession({ dcql: sdJwtQuery(), responseMode: 'direct_post', redirectUri: 'https://rp.tessera.test/done' });
    const other = await e.createSession({ dcql: sdJwtQuery(), responseMode: 'direct_post', redirectUri: 'https://rp.tessera.test/done' });
    const code = codeOf(String((await answer(session)).body.redirect_uri));
    const otherCode = codeOf(String((await answer(other)).body.redirect_uri));

    const right = await readResult(session.id, code);
    expect(right.status).toBe(200);
    expect(right.body.data).toMatchObject({ id: session.id, state: 'ResponseVerified', presentations: [expect.objectContaining({ claims: expect.objectContaining({ given_name: 'Erika' }) })] });
    const none = await readResult(session.id);
    expect(none.status).toBe(200);
    expect(none.body.data).toEqual(right.body.data);

    for (const wrong of [otherCode, `${code.slice(0, -1)}${code.endsWith('A') ? 'B' : 'A'}`, 'x']) {
      const refused = await readResult(session.id, wrong);
      expect(refused.status).toBe(403);
      expect(refused.body).toEqual({ statusCode: 403, error: 'Forbidden', code: 'RESPONSE_CODE_MISMATCH', message: expect.any(String) });
      expect(JSON.stringify(refused.body)).not.toContain('Erika');
    }
  });

  it('the code is not consumed: reading again with it answers the same (idempotent reads, safe retries)', async () => {
    const session = await e.createSession({ dcql: sdJwtQuery(), responseMode: 'direct_post', redirectUri: 'https://rp.tessera.test/done' });
    const code = codeOf(String((await answer(session)).body.redirect_uri));
    const first = await readResult(session.id, code);
    const again = await readResult(session.id, code);
    expect([first.status, again.status]).toEqual([200, 200]);
    expect(again.body.data).toEqual(first.body.data);
  });

  it('a session that issued no code (no redirectUri, or not verified) refuses any responseCode with 403', async () => {
    const plain = await e.createSession({ dcql: sdJwtQuery(), responseMode: 'direct_post' });
    await answer(plain);
    expect((await readResult(plain.id, 'any-code')).body.code).toBe('RESPONSE_CODE_MISMATCH');
    expect((await readResult(plain.id)).status).toBe(200);

    const failed = await e.createSession({ dcql: sdJwtQuery(), responseMode: 'direct_post', redirectUri: 'https://rp.tessera.test/done' });
    const refused = await answer(failed, { nonce: 'not-the-session-nonce' });
    expect(refused.status).toBe(400);
    expect(refused.body).not.toHaveProperty('redirect_uri');
    expect((await readResult(failed.id, 'any-code')).status).toBe(403);
    expect((await readResult(failed.id)).body.code).toBe('PRESENTATION_NOT_VERIFIED');
  });
});
