import { describe, expect } from 'vitest';
import { fetchRequestObject } from '../../src/use-cases/fetch-request-object.js';
import { readPresentationResponse } from '../../src/use-cases/read-presentation-response.js';
import { readPresentationSessions } from '../../src/use-cases/read-presentation-sessions.js';
import { receiveWalletResponse } from '../../src/use-cases/receive-wallet-response.js';
import { createIssuer, issuePid, newHolder } from '../support/issuers.js';
import { presentPid } from '../support/holder.js';
import { ORG } from '../support/management.js';
import {
  createPidSession,
  factsOf,
  presentPidFor,
  useCaseTest as test,
  valueOf,
  type CreatedSession,
  type UseCaseWorld,
} from '../support/use-cases.js';

// The wallet's answer at response_uri (`direct_post`; VERIFIER.md, Wallet-facing
// endpoints): verified against the organisation's anchors and settled once; junk is
// refused with the session unchanged; a presentation that fails verification ends the
// session in Error and the wallet is told why.
const page = { page: 1, pageSize: 10, offset: 0 };

async function stateOf(world: UseCaseWorld, session: CreatedSession) {
  const read = await readPresentationSessions(world.deps, { orgId: ORG, id: session.id, filters: {}, page });
  return read.kind === 'one' ? read.session : undefined;
}

/** The wallet's side: fetch the request object, read the facts it binds the presentation to. */
async function walletReads(world: UseCaseWorld, session: CreatedSession) {
  return factsOf(
    valueOf(await fetchRequestObject(world.deps, { authorizationRequestId: session.authorizationRequestId })),
  );
}

const answer = (world: UseCaseWorld, session: CreatedSession, fields: Record<string, unknown>) =>
  receiveWalletResponse(world.deps, { authorizationRequestId: session.authorizationRequestId, fields });

describe('receiving the wallet’s response', () => {
  test('a presentation from a trusted issuer verifies: the session is ResponseVerified and its claims readable, minimised to the query', async ({
    world,
  }) => {
    const session = await createPidSession(world);
    const facts = await walletReads(world, session);
    const vpToken = JSON.stringify({ pid: [await presentPidFor(world, facts)] });
    expect(await answer(world, session, { vp_token: vpToken, state: facts.state })).toEqual({ ok: true, value: {} });
    expect(await stateOf(world, session)).toMatchObject({ state: 'ResponseVerified' });
    await world.events.waitFor(session.id, 'ResponseVerified');
    const read = await readPresentationResponse(world.deps, { orgId: ORG, sessionId: session.id, subject: 'reader-1' });
    expect(read.result.presentations).toMatchObject([
      {
        credentialQueryId: 'pid',
        format: 'dc+sd-jwt',
        claims: { given_name: 'Erika', family_name: 'Mustermann' },
        holderBinding: true,
      },
    ]);
    expect(read.result.presentations[0]!.claims).not.toHaveProperty('age_over_18');
  });

  test('a same-device session gets its redirect with a fresh response_code, which alone reads the result', async ({
    world,
  }) => {
    const session = await createPidSession(world, { redirectUri: 'https://rp.example/done' });
    const facts = await walletReads(world, session);
    const vpToken = JSON.stringify({ pid: [await presentPidFor(world, facts)] });
    const { redirectUri } = valueOf(await answer(world, session, { vp_token: vpToken, state: facts.state }));
    const responseCode = new URL(redirectUri!).searchParams.get('response_code')!;
    expect(redirectUri).toMatch(/^https:\/\/rp\.example\/done\?response_code=/);
    const read = (code: string) =>
      readPresentationResponse(world.deps, { orgId: ORG, sessionId: session.id, subject: 'rp', responseCode: code });
    await expect(read('not-the-code')).rejects.toMatchObject({ statusCode: 403, code: 'RESPONSE_CODE_MISMATCH' });
    expect((await read(responseCode)).session.id).toBe(session.id);
  });

  test('junk is refused and changes nothing: a wrong state, an unreadable vp_token; the real answer then verifies', async ({
    world,
  }) => {
    const session = await createPidSession(world);
    const facts = await walletReads(world, session);
    const vpToken = JSON.stringify({ pid: [await presentPidFor(world, facts)] });
    expect(await answer(world, session, { vp_token: vpToken, state: 'someone-else' })).toEqual({
      ok: false,
      refusal: { kind: 'invalid-request', description: 'state does not match the authorization request.' },
    });
    expect(await answer(world, session, { vp_token: '{not json', state: facts.state })).toEqual({
      ok: false,
      refusal: { kind: 'invalid-request', description: 'vp_token is not JSON.' },
    });
    expect(await stateOf(world, session)).toMatchObject({ state: 'RequestUriRetrieved', errorCode: null });
    expect((await answer(world, session, { vp_token: vpToken, state: facts.state })).ok).toBe(true);
  });

  test('a presentation that fails verification ends the session in Error and tells the wallet why; a later answer is refused', async ({
    world,
  }) => {
    const session = await createPidSession(world);
    const facts = await walletReads(world, session);
    const stranger = await createIssuer('Untrusted Issuer');
    const holder = await newHolder();
    const vpToken = JSON.stringify({ pid: [await presentPid(await issuePid(stranger, holder), holder, facts)] });
    const refused = await answer(world, session, { vp_token: vpToken, state: facts.state });
    expect(refused).toMatchObject({
      ok: false,
      refusal: { kind: 'invalid-request', description: expect.stringMatching(/^The presentation was not accepted: /) },
    });
    expect(await stateOf(world, session)).toMatchObject({ state: 'Error', errorCode: 'ISSUER_NOT_TRUSTED' });
    expect(await answer(world, session, { vp_token: vpToken, state: facts.state })).toEqual({
      ok: false,
      refusal: { kind: 'request-unavailable', description: 'The authorization request has already been answered.' },
    });
  });

  test('a wallet error ends the session with WALLET_ERROR', async ({ world }) => {
    const session = await createPidSession(world);
    const facts = await walletReads(world, session);
    expect(
      await answer(world, session, {
        error: 'access_denied',
        error_description: 'The user declined.',
        state: facts.state,
      }),
    ).toEqual({ ok: true, value: {} });
    expect(await stateOf(world, session)).toMatchObject({ state: 'Error', errorCode: 'WALLET_ERROR' });
  });

  test('refusals before anything is read: no such request, a DC API session, beyond the session’s limit', async ({
    world,
  }) => {
    expect(await receiveWalletResponse(world.deps, { authorizationRequestId: 'no-such-request', fields: {} })).toEqual({
      ok: false,
      refusal: { kind: 'unknown-request' },
    });
    const dcApi = await createPidSession(world, { responseMode: 'dc_api', expectedOrigins: ['https://rp.example'] });
    expect(await answer(world, dcApi, { vp_token: '{}', state: dcApi.payloadState })).toMatchObject({
      ok: false,
      refusal: { kind: 'request-unavailable' },
    });
    const limited = { ...world.deps, sessionLimits: { requestFetches: 10, responses: 1, windowMs: 60_000 } };
    const session = await createPidSession(world);
    const junk = { authorizationRequestId: session.authorizationRequestId, fields: { vp_token: 'x', state: 'y' } };
    expect((await receiveWalletResponse(limited, junk)).ok).toBe(false);
    expect(await receiveWalletResponse(limited, junk)).toMatchObject({ ok: false, refusal: { kind: 'over-limit' } });
  });
});
