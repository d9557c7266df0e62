import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createE2e, type E2e } from '../support/e2e.js';
import { listenToSessionEvents } from '../support/events.js';
import { mdocQuery, sdJwtQuery } from '../support/dcql-queries.js';
import { buildResponse, dcApiPayload, presentMdl, presentPid, requestFacts, resolveDcApiRequest, resolveRedirectRequest, submitResponse, type RequestFacts } from '../support/holder.js';
import { createIssuer, issueMdl, issuePid, newHolder, type Holder } from '../support/issuers.js';

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
const nowSeconds = () => Math.floor(Date.now() / 1000);
type Present = (holder: Holder, facts: RequestFacts) => Promise<string>;

/** A redirect session answered through the wallet library with a crafted presentation for `queryId`. */
async function answerRedirect(session: any, queryId: string, present: Present) {
  const holder = await newHolder();
  const resolved = await resolveRedirectRequest(e.wallet, session.authorizationRequestUri);
  const built = await buildResponse(e.wallet, resolved, { [queryId]: [await present(holder, requestFacts(resolved))] });
  return submitResponse(e.wallet, resolved, built);
}

async function expectFailedWith(session: any, answered: { status: number; body: any }, code: string) {
  expect(answered.status).toBe(400);
  expect(answered.body).toEqual({ error: 'invalid_request', error_description: expect.any(String) });
  const record = await e.readSession(session.id);
  expect(record.state).toBe('Error');
  expect(record.error.code).toBe(code);
  expect(answered.body.error_description).toContain(record.error.message);
  await listener.waitFor(session.id, 'Error');
  expect((await e.readResult(session.id)).status).toBe(409);
}

describe('well-formed responses that fail verification end the session in Error with the check’s code', () => {
  const pid = (options: Parameters<typeof issuePid>[2] = {}, present: Parameters<typeof presentPid>[3] = {}): Present => async (holder, facts) =>
    presentPid(await issuePid(e.issuer, holder, options), holder, facts, present);

  it.each([
    ['wrong nonce', 'NONCE_MISMATCH', pid({}, { nonce: 'another-nonce' })],
    ['wrong aud', 'AUDIENCE_MISMATCH', pid({}, { aud: 'x509_hash:someone-else' })],
    ['stale KB-JWT iat', 'KEY_BINDING_STALE', pid({}, { iat: nowSeconds() - 3600 })],
    ['expired credential', 'CREDENTIAL_EXPIRED', pid({ exp: new Date(Date.now() - 3_600_000) })],
    ['wrong vct', 'DCQL_NOT_SATISFIED', pid({ vct: 'https://example.eu/not-a-pid' })],
  ] as const)('%s → %s', async (_name, code, present) => {
    const session = await e.createSession({ dcql: sdJwtQuery(), responseMode: 'direct_post' });
    await expectFailedWith(session, await answerRedirect(session, 'pid', present), code);
  });

  it('tampered disclosure → DISCLOSURE_INVALID', async () => {
    const session = await e.createSession({ dcql: sdJwtQuery(), responseMode: 'direct_post' });
    const forged = Buffer.from(JSON.stringify(['c2FsdHNhbHRzYWx0', 'given_name', 'Mallory'])).toString('base64url');
    const present: Present = async (holder, facts) => {
      const issued = await issuePid(e.issuer, holder);
      // The disclosure keeps its salt and name but claims another value: its digest is not in _sd.
      const original = JSON.parse(Buffer.from(issued.disclosures.given_name!, 'base64url').toString()) as [string, string, unknown];
      issued.disclosures.given_name = Buffer.from(JSON.stringify([original[0], original[1], 'Mallory'])).toString('base64url');
      return presentPid(issued, holder, facts, { extraDisclosures: [forged] });
    };
    await expectFailedWith(session, await answerRedirect(session, 'pid', present), 'DISCLOSURE_INVALID');
  });

  it('issuer not trusted → ISSUER_NOT_TRUSTED (and trusted once its CA is an anchor)', async () => {
    const rogue = await createIssuer('Rogue Issuer');
    const present: Present = async (holder, facts) => presentPid(await issuePid(rogue, holder), holder, facts);
    const session = await e.createSession({ dcql: sdJwtQuery(), responseMode: 'direct_post' });
    await expectFailedWith(session, await answerRedirect(session, 'pid', present), 'ISSUER_NOT_TRUSTED');
    // Anchors are read per verification: adding one applies to the next session at once, deleting it too.
    const added = await e.call('POST', '/v1/orgs/org-acme/oid4vp/trust-anchors', { certificatePem: rogue.ca.pem });
    const next = await e.createSession({ dcql: sdJwtQuery(), responseMode: 'direct_post' });
    expect((await answerRedirect(next, 'pid', present)).status).toBe(200);
    await e.call('DELETE', `/v1/orgs/org-acme/oid4vp/trust-anchors/${added.body.data.id}`);
    const third = await e.createSession({ dcql: sdJwtQuery(), responseMode: 'direct_post' });
    await expectFailedWith(third, await answerRedirect(third, 'pid', present), 'ISSUER_NOT_TRUSTED');
  });

  it('unmet required credential set → DCQL_NOT_SATISFIED', async () => {
    const dcql = { ...sdJwtQuery(), credentials: [...sdJwtQuery().credentials, ...mdocQuery().credentials], credential_sets: [{ options: [['pid', 'mdl']], required: true }] };
    const session = await e.createSession({ dcql, responseMode: 'direct_post' });
    const answered = await answerRedirect(session, 'pid', async (holder, facts) => presentPid(await issuePid(e.issuer, holder), holder, facts));
    await expectFailedWith(session, answered, 'DCQL_NOT_SATISFIED');
  });

  it('mdoc whose transcript names another origin → DEVICE_SIGNATURE_INVALID (DC API answers 200 with state Error)', async () => {
    const session = await e.createSession({ dcql: mdocQuery(), responseMode: 'dc_api', expectedOrigins: [ORIGIN] });
    const holder = await newHolder();
    const resolved = await resolveDcApiRequest(e.wallet, session.dcApiRequest.data, ORIGIN);
    const presentation = await presentMdl(await issueMdl(e.issuer, holder), holder, requestFacts(resolved), { origin: 'https://evil.tessera.test' });
    const built = await buildResponse(e.wallet, resolved, { mdl: [presentation] }, ORIGIN);
    const answered = await e.verifyDcApi({ verificationSessionId: session.id, authorizationResponse: dcApiPayload(built), origin: ORIGIN });
    expect(answered.status).toBe(200);
    expect(answered.body.data).toEqual({ id: session.id, state: 'Error', error: { code: 'DEVICE_SIGNATURE_INVALID', message: expect.any(String) } });
    expect((await e.readSession(session.id)).error.code).toBe('DEVICE_SIGNATURE_INVALID');
  });

  it('transaction data: hashes of the strings as sent verify; a KB-JWT without them → TRANSACTION_DATA_MISMATCH', async () => {
    const transactionData = [{ type: 'payment_confirmation', credential_ids: ['pid'], amount: '42.00 EUR' }];
    const hashesOf = (facts: RequestFacts & { transactionData?: string[] }) => (facts.transactionData ?? []).map((entry) => createHash('sha256').update(entry).digest('base64url'));
    const withData = async (includeHashes: boolean) => {
      const session = await e.createSession({ dcql: sdJwtQuery(), responseMode: 'direct_post', transactionData });
      const holder = await newHolder();
      const resolved = await resolveRedirectRequest(e.wallet, session.authorizationRequestUri);
      const sent = (resolved.authorizationRequestPayload as { transaction_data?: string[] }).transaction_data;
      expect(sent).toHaveLength(1);
      const facts = { ...requestFacts(resolved), transactionData: sent };
      const presentation = await presentPid(await issuePid(e.issuer, holder), holder, facts, includeHashes ? { transactionDataHashes: hashesOf(facts) } : {});
      return { session, answered: await submitResponse(e.wallet, resolved, await buildResponse(e.wallet, resolved, { pid: [presentation] })) };
    };
    expect((await withData(true)).answered.status).toBe(200);
    const { session, answered } = await withData(false);
    await expectFailedWith(session, answered, 'TRANSACTION_DATA_MISMATCH');
  });

  it('a KB-JWT audience of the client_id over the DC API → AUDIENCE_MISMATCH (the origin is the audience there)', async () => {
    const session = await e.createSession({ dcql: sdJwtQuery(), responseMode: 'dc_api', expectedOrigins: [ORIGIN] });
    const holder = await newHolder();
    const resolved = await resolveDcApiRequest(e.wallet, session.dcApiRequest.data, ORIGIN);
    const presentation = await presentPid(await issuePid(e.issuer, holder), holder, requestFacts(resolved), { aud: session.clientId });
    const answered = await e.verifyDcApi({ verificationSessionId: session.id, authorizationResponse: { vp_token: { pid: [presentation] } }, origin: ORIGIN });
    expect(answered.body.data).toMatchObject({ state: 'Error', error: { code: 'AUDIENCE_MISMATCH' } });
  });
});
