import { createHash } from 'node:crypto';
import { describe, expect } from 'vitest';
import type { CreatedPresentation } from '@tessera/contracts';
import { mdocQuery, sdJwtQuery } from '../support/dcql-queries.js';
import type { E2e } from '../support/e2e.js';
import type { SessionEvents } from '../support/events.js';
import { e2eTest } from '../support/fixtures.js';
import {
  buildResponse,
  dcApiPayload,
  presentMdl,
  presentPid,
  requestFacts,
  resolveDcApiRequest,
  resolveRedirectRequest,
  submitResponse,
  type RequestFacts,
  type WalletEndpointAnswer,
} from '../support/holder.js';
import { createIssuer, issueMdl, issuePid, newHolder, type Holder } from '../support/issuers.js';
import { ORG } from '../support/management.js';
import { notAcceptedDescription, verificationErrorText } from '../support/session-error-texts.js';

const ORIGIN = 'https://rp.tessera.test';
const nowSeconds = () => Math.floor(Date.now() / 1000);
type Present = (holder: Holder, facts: RequestFacts) => Promise<string>;

const test = e2eTest();

/** A redirect session answered through the wallet library with a crafted presentation for `queryId`. */
async function answerRedirect(e: E2e, session: CreatedPresentation, queryId: string, present: Present) {
  const holder = await newHolder();
  const resolved = await resolveRedirectRequest(e.wallet, session.authorizationRequestUri!);
  const built = await buildResponse(e.wallet, resolved, { [queryId]: [await present(holder, requestFacts(resolved))] });
  return submitResponse(e.wallet, resolved, built);
}

/** The answer was refused with the check's code, and the session ended in Error with it (read, published, no result). */
async function expectFailedWith(
  e: E2e,
  sessionEvents: SessionEvents,
  session: CreatedPresentation,
  answered: { status: number; body: WalletEndpointAnswer },
  code: string,
  queryId: string | null = 'pid',
) {
  expect(answered.status).toBe(400);
  // The code's fixed sentence, about the credential query answered (issue 28, item 3).
  expect(answered.body).toEqual({
    error: 'invalid_request',
    error_description: notAcceptedDescription(code, queryId ?? undefined),
  });
  const record = await e.readSession(session.id);
  expect(record.state).toBe('Error');
  expect(record.error).toEqual({ code, message: verificationErrorText(code, queryId ?? undefined) });
  await sessionEvents.waitFor(session.id, 'Error');
  expect((await e.readResult(session.id)).status).toBe(409);
}

/** A PID of the setting's issuer with `options`, presented with `present`. */
const pid =
  (options: Parameters<typeof issuePid>[2] = {}, present: Parameters<typeof presentPid>[3] = {}) =>
  (e: E2e): Present =>
  async (holder, facts) =>
    presentPid(await issuePid(e.issuer, holder, options), holder, facts, present);

describe('well-formed responses that fail verification end the session in Error with the check’s code', () => {
  test.for([
    ['wrong nonce', 'NONCE_MISMATCH', pid({}, { nonce: 'another-nonce' })],
    ['wrong aud', 'AUDIENCE_MISMATCH', pid({}, { aud: 'x509_hash:someone-else' })],
    ['stale KB-JWT iat', 'KEY_BINDING_STALE', pid({}, { iat: nowSeconds() - 3600 })],
    ['expired credential', 'CREDENTIAL_EXPIRED', pid({ exp: new Date(Date.now() - 3_600_000) })],
    ['wrong vct', 'DCQL_NOT_SATISFIED', pid({ vct: 'https://example.eu/not-a-pid' })],
  ] as const)('%s → %s', async ([_name, code, present], { e2e: e, sessionEvents }) => {
    const session = await e.createSession({ dcql: sdJwtQuery(), responseMode: 'direct_post' });
    await expectFailedWith(e, sessionEvents, session, await answerRedirect(e, session, 'pid', present(e)), code);
  });

  test('tampered disclosure → DISCLOSURE_INVALID', async ({ e2e: e, sessionEvents }) => {
    const session = await e.createSession({ dcql: sdJwtQuery(), responseMode: 'direct_post' });
    const forged = Buffer.from(JSON.stringify(['c2FsdHNhbHRzYWx0', 'given_name', 'Mallory'])).toString('base64url');
    const present: Present = async (holder, facts) => {
      const issued = await issuePid(e.issuer, holder);
      // The disclosure keeps its salt and name but claims another value: its digest is not in _sd.
      const original = JSON.parse(Buffer.from(issued.disclosures.given_name!, 'base64url').toString()) as [
        string,
        string,
        unknown,
      ];
      issued.disclosures.given_name = Buffer.from(JSON.stringify([original[0], original[1], 'Mallory'])).toString(
        'base64url',
      );
      return presentPid(issued, holder, facts, { extraDisclosures: [forged] });
    };
    await expectFailedWith(
      e,
      sessionEvents,
      session,
      await answerRedirect(e, session, 'pid', present),
      'DISCLOSURE_INVALID',
    );
  });

  test('issuer not trusted → ISSUER_NOT_TRUSTED (and trusted once its CA is an anchor)', async ({
    api,
    e2e: e,
    sessionEvents,
  }) => {
    const rogue = await createIssuer('Rogue Issuer');
    const present: Present = async (holder, facts) => presentPid(await issuePid(rogue, holder), holder, facts);
    const session = await e.createSession({ dcql: sdJwtQuery(), responseMode: 'direct_post' });
    await expectFailedWith(
      e,
      sessionEvents,
      session,
      await answerRedirect(e, session, 'pid', present),
      'ISSUER_NOT_TRUSTED',
    );
    // Anchors are read per verification: adding one applies to the next session at once, deleting it too.
    const added = await api('POST', `/v1/orgs/${ORG}/oid4vp/trust-anchors`, { certificatePem: rogue.ca.pem });
    const next = await e.createSession({ dcql: sdJwtQuery(), responseMode: 'direct_post' });
    expect((await answerRedirect(e, next, 'pid', present)).status).toBe(200);
    await api('DELETE', `/v1/orgs/${ORG}/oid4vp/trust-anchors/${added.body.data.id}`);
    const third = await e.createSession({ dcql: sdJwtQuery(), responseMode: 'direct_post' });
    await expectFailedWith(
      e,
      sessionEvents,
      third,
      await answerRedirect(e, third, 'pid', present),
      'ISSUER_NOT_TRUSTED',
    );
  });

  test('unmet required credential set → DCQL_NOT_SATISFIED', async ({ e2e: e, sessionEvents }) => {
    const dcql = {
      ...sdJwtQuery(),
      credentials: [...sdJwtQuery().credentials, ...mdocQuery().credentials],
      credential_sets: [{ options: [['pid', 'mdl']], required: true }],
    };
    const session = await e.createSession({ dcql, responseMode: 'direct_post' });
    const answered = await answerRedirect(e, session, 'pid', async (holder, facts) =>
      presentPid(await issuePid(e.issuer, holder), holder, facts),
    );
    // A credential set is no credential query: the message names none.
    await expectFailedWith(e, sessionEvents, session, answered, 'DCQL_NOT_SATISFIED', null);
  });

  test('mdoc whose transcript names another origin → DEVICE_SIGNATURE_INVALID (DC API answers 200 with state Error)', async ({
    e2e: e,
  }) => {
    const session = await e.createSession({ dcql: mdocQuery(), responseMode: 'dc_api', expectedOrigins: [ORIGIN] });
    const holder = await newHolder();
    const resolved = await resolveDcApiRequest(e.wallet, session.dcApiRequest!.data, ORIGIN);
    const presentation = await presentMdl(await issueMdl(e.issuer, holder), holder, requestFacts(resolved), {
      origin: 'https://evil.tessera.test',
    });
    const built = await buildResponse(e.wallet, resolved, { mdl: [presentation] }, ORIGIN);
    const answered = await e.verifyDcApi({
      verificationSessionId: session.id,
      authorizationResponse: dcApiPayload(built),
      origin: ORIGIN,
    });
    expect(answered.status).toBe(200);
    expect(answered.body.data).toEqual({
      id: session.id,
      state: 'Error',
      error: {
        code: 'DEVICE_SIGNATURE_INVALID',
        message: 'The device signature of the credential is invalid (credential query "mdl").',
      },
    });
    expect((await e.readSession(session.id)).error).toEqual(answered.body.data.error);
  });

  test('transaction data: hashes of the strings as sent verify; a KB-JWT without them → TRANSACTION_DATA_MISMATCH', async ({
    e2e: e,
    sessionEvents,
  }) => {
    const transactionData = [{ type: 'payment_confirmation', credential_ids: ['pid'], amount: '42.00 EUR' }];
    const hashesOf = (facts: RequestFacts & { transactionData?: string[] }) =>
      (facts.transactionData ?? []).map((entry) => createHash('sha256').update(entry).digest('base64url'));
    const withData = async (includeHashes: boolean) => {
      const session = await e.createSession({ dcql: sdJwtQuery(), responseMode: 'direct_post', transactionData });
      const holder = await newHolder();
      const resolved = await resolveRedirectRequest(e.wallet, session.authorizationRequestUri!);
      const sent = (resolved.authorizationRequestPayload as { transaction_data?: string[] }).transaction_data;
      expect(sent).toHaveLength(1);
      const facts = { ...requestFacts(resolved), transactionData: sent };
      const presentation = await presentPid(
        await issuePid(e.issuer, holder),
        holder,
        facts,
        includeHashes ? { transactionDataHashes: hashesOf(facts) } : {},
      );
      return {
        session,
        answered: await submitResponse(
          e.wallet,
          resolved,
          await buildResponse(e.wallet, resolved, { pid: [presentation] }),
        ),
      };
    };
    expect((await withData(true)).answered.status).toBe(200);
    const { session, answered } = await withData(false);
    await expectFailedWith(e, sessionEvents, session, answered, 'TRANSACTION_DATA_MISMATCH');
  });

  test('a KB-JWT audience of the client_id over the DC API → AUDIENCE_MISMATCH (the origin is the audience there)', async ({
    e2e: e,
  }) => {
    const session = await e.createSession({ dcql: sdJwtQuery(), responseMode: 'dc_api', expectedOrigins: [ORIGIN] });
    const holder = await newHolder();
    const resolved = await resolveDcApiRequest(e.wallet, session.dcApiRequest!.data, ORIGIN);
    const presentation = await presentPid(await issuePid(e.issuer, holder), holder, requestFacts(resolved), {
      aud: session.clientId,
    });
    const answered = await e.verifyDcApi({
      verificationSessionId: session.id,
      authorizationResponse: { vp_token: { pid: [presentation] } },
      origin: ORIGIN,
    });
    expect(answered.body.data).toMatchObject({ state: 'Error', error: { code: 'AUDIENCE_MISMATCH' } });
  });
});
