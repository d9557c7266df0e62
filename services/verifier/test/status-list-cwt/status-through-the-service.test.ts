import { describe, expect, type OnTestFinishedHandler } from 'vitest';
import { mdocQuery, sdJwtQuery } from '../support/dcql-queries.js';
import type { E2e } from '../support/e2e.js';
import { e2eTest, temporaryDirectory } from '../support/fixtures.js';
import type { Harness } from '../support/harness.js';
import { verificationErrorText } from '../support/session-error-texts.js';
import {
  buildResponse,
  presentMdl,
  presentPid,
  requestFacts,
  resolveRedirectRequest,
  submitResponse,
} from '../support/holder.js';
import {
  createIssuer,
  issueMdl,
  issuePid,
  newHolder,
  signStatusList,
  signStatusListCwt,
  type TestIssuer,
} from '../support/issuers.js';
import {
  createList,
  newListUri,
  replaceList,
  startStatusListService,
  type PublishedToken,
  type StatusListService,
} from '../support/status-list-service.js';

// Both forms of a status list, published through the project's own status list service
// (started in the test through its package entry, PGlite, real HTTP) and read by the
// verifier while a wallet answers over real HTTP: an mdoc whose MSO names a CWT list
// (the form mdoc issuers publish), an mdoc naming a JWT list, an SD-JWT VC naming a
// CWT list. Entry 1 of every list is revoked (INVALID), entry 2 suspended.

const test = e2eTest()
  .extend('dataDir', { scope: 'file' }, temporaryDirectory('verifier-status-cwt-'))
  .extend('statusList', { scope: 'file' }, startStatusListService);

type Form = 'jwt' | 'cwt';
type Credential = 'mdoc' | 'sd-jwt';

/** The list's token in `form`, signed by `issuer`: 2 bits, `statuses` over all-VALID. */
async function signedList(issuer: TestIssuer, form: Form, uri: string, statuses: Record<number, number>) {
  const options = { uri, bits: 2 as const, statuses };
  const token: PublishedToken =
    form === 'cwt' ? { cwt: await signStatusListCwt(issuer, options) } : { jwt: await signStatusList(issuer, options) };
  return token;
}

/** Publishes a list of `form` signed by `issuer` (entry 1 revoked, 2 suspended); `revoke` later sets another entry INVALID. */
async function publishList(statusList: StatusListService, issuer: TestIssuer, form: Form) {
  const { id, uri } = newListUri(statusList);
  const statuses: Record<number, number> = { 1: 0x01, 2: 0x02 };
  await createList(statusList, id, await signedList(issuer, form, uri, statuses));
  return {
    uri,
    async revoke(idx: number) {
      statuses[idx] = 0x01;
      await replaceList(statusList, id, await signedList(issuer, form, uri, statuses));
    },
  };
}

/** A wallet answers a new direct_post session with a credential of the setting's issuer whose status is `status`. */
async function present(e: E2e, credential: Credential, status: { uri: string; idx: number }) {
  const session = await e.createSession({
    dcql: credential === 'mdoc' ? mdocQuery() : sdJwtQuery(),
    responseMode: 'direct_post',
  });
  const holder = await newHolder();
  const resolved = await resolveRedirectRequest(e.wallet, session.authorizationRequestUri!);
  const facts = requestFacts(resolved);
  const vpToken: Record<string, string[]> =
    credential === 'mdoc'
      ? { mdl: [await presentMdl(await issueMdl(e.issuer, holder, { status }), holder, facts)] }
      : { pid: [await presentPid(await issuePid(e.issuer, holder, { status }), holder, facts)] };
  const answered = await submitResponse(e.wallet, resolved, await buildResponse(e.wallet, resolved, vpToken));
  return { session, answered, record: await e.readSession(session.id) };
}

/** The verifier's clock moved past the lists' ttl of 1 s (its cached copies are then fetched again), put back after the test. */
function pastTheTtl(harness: Harness, onTestFinished: (handler: OnTestFinishedHandler) => void) {
  onTestFinished(() => {
    harness.clock.offsetMs = 0;
  });
  harness.clock.offsetMs += 2000;
}

describe('an mdoc whose MSO names a CWT status list', () => {
  test('a VALID entry verifies, and the result names the CWT form', async ({ e2e: e, statusList }) => {
    const list = await publishList(statusList, e.issuer, 'cwt');
    const { session, answered, record } = await present(e, 'mdoc', { uri: list.uri, idx: 0 });
    expect(record, JSON.stringify(record)).toMatchObject({ state: 'ResponseVerified' });
    expect(answered.status).toBe(200);
    const result = (await e.readResult(session.id)).body.data.presentations[0];
    expect(result).toMatchObject({
      format: 'mso_mdoc',
      status: { uri: list.uri, idx: 0, status: 'VALID', format: 'cwt' },
    });
  });

  test.for([
    [1, 'CREDENTIAL_REVOKED'],
    [2, 'CREDENTIAL_SUSPENDED'],
  ] as const)('entry %i → refused %s', async ([idx, code], { e2e: e, statusList }) => {
    const list = await publishList(statusList, e.issuer, 'cwt');
    const { answered, record } = await present(e, 'mdoc', { uri: list.uri, idx });
    expect(answered.status).toBe(400);
    expect(record).toMatchObject({ state: 'Error', error: { code } });
  });

  test('verified, then revoked by the issuer (PATCH of the CWT list): the next presentation is CREDENTIAL_REVOKED', async ({
    e2e: e,
    statusList,
    harness,
    onTestFinished,
  }) => {
    const list = await publishList(statusList, e.issuer, 'cwt');
    expect((await present(e, 'mdoc', { uri: list.uri, idx: 5 })).record.state).toBe('ResponseVerified');
    await list.revoke(5);
    pastTheTtl(harness, onTestFinished);
    const { record } = await present(e, 'mdoc', { uri: list.uri, idx: 5 });
    // One sentence about the credential query; where the list lives is not the session's to say (issue 28, item 3).
    expect(record).toMatchObject({
      state: 'Error',
      error: { code: 'CREDENTIAL_REVOKED', message: verificationErrorText('CREDENTIAL_REVOKED', 'mdl') },
    });
  });

  test("a CWT list signed by another issuer's key → STATUS_LIST_UNAVAILABLE (its revocations count for nothing)", async ({
    e2e: e,
    statusList,
  }) => {
    const other = await publishList(statusList, await createIssuer('Other Issuer'), 'cwt');
    for (const idx of [0, 1]) {
      const { record } = await present(e, 'mdoc', { uri: other.uri, idx });
      expect(record).toMatchObject({
        state: 'Error',
        error: { code: 'STATUS_LIST_UNAVAILABLE', message: verificationErrorText('STATUS_LIST_UNAVAILABLE', 'mdl') },
      });
    }
  });
});

describe('either credential names either form', () => {
  test.for([
    ['mdoc', 'jwt'],
    ['sd-jwt', 'cwt'],
  ] as const)(
    'a %s credential naming a %s list: VALID verifies (the form named), revoked after a PATCH',
    async ([credential, form], { e2e: e, statusList, harness, onTestFinished }) => {
      const list = await publishList(statusList, e.issuer, form);
      const valid = await present(e, credential, { uri: list.uri, idx: 3 });
      expect(valid.record, JSON.stringify(valid.record)).toMatchObject({ state: 'ResponseVerified' });
      expect((await e.readResult(valid.session.id)).body.data.presentations[0].status).toEqual({
        uri: list.uri,
        idx: 3,
        status: 'VALID',
        format: form,
      });
      expect((await present(e, credential, { uri: list.uri, idx: 2 })).record.error?.code).toBe('CREDENTIAL_SUSPENDED');
      await list.revoke(3);
      pastTheTtl(harness, onTestFinished);
      expect((await present(e, credential, { uri: list.uri, idx: 3 })).record.error?.code).toBe('CREDENTIAL_REVOKED');
    },
  );
});
