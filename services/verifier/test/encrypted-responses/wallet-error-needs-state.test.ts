import { describe, expect } from 'vitest';
import type { ResponseMode } from '@tessera/contracts';
import { expectSessionUnchanged } from '../support/answers.js';
import { sdJwtQuery } from '../support/dcql-queries.js';
import { e2eTest } from '../support/fixtures.js';
import { requestFacts, resolveRedirectRequest } from '../support/holder.js';
import { buildJwe } from './build-jwe.js';

// A wallet `error` ends a redirect session only with the session's `state` (issue 28,
// item 7), in both modes, over real HTTP: before, anyone who saw the QR code could end
// a `direct_post.jwt` session — whose answers must otherwise be encrypted — or a
// `direct_post` one by posting `error=access_denied` without `state`. A refused error
// leaves the session open, so the real wallet still answers it.
const test = e2eTest();

const STATE_REQUIRED = { error: 'invalid_request', error_description: 'state is required.' };
const STATE_MISMATCH = {
  error: 'invalid_request',
  error_description: 'state does not match the authorization request.',
};

describe.each<ResponseMode>(['direct_post', 'direct_post.jwt'])('%s: a wallet error needs the state', (mode) => {
  test('a plaintext error without state or with a wrong one is 400 and changes nothing; with the state it ends the session with WALLET_ERROR', async ({
    e2e: e,
    sessionEvents,
  }) => {
    const session = await e.createSession({ dcql: sdJwtQuery(), responseMode: mode });
    // Whoever saw the QR code can fetch the request object (RequestUriRetrieved).
    await resolveRedirectRequest(e.wallet, session.authorizationRequestUri!);
    expect(await e.postForm(session.responseUri!, { error: 'access_denied' })).toEqual({
      status: 400,
      body: STATE_REQUIRED,
    });
    expect(
      await e.postForm(session.responseUri!, { error: 'access_denied', error_description: 'declined', state: '' }),
    ).toEqual({ status: 400, body: STATE_MISMATCH });
    expect(await e.postForm(session.responseUri!, { error: 'access_denied', state: 'not-the-state' })).toEqual({
      status: 400,
      body: STATE_MISMATCH,
    });
    await expectSessionUnchanged(e, sessionEvents, session);

    expect(
      await e.postForm(session.responseUri!, {
        error: 'access_denied',
        error_description: 'declined',
        state: session.payloadState,
      }),
    ).toEqual({ status: 200, body: {} });
    expect(await e.readSession(session.id)).toMatchObject({ state: 'Error', error: { code: 'WALLET_ERROR' } });
    await sessionEvents.waitFor(session.id, 'Error');
  });
});

describe('direct_post.jwt: an encrypted error needs the state too', () => {
  test('an error encrypted to the session key without state is 400 and changes nothing; with it, WALLET_ERROR', async ({
    e2e: e,
    sessionEvents,
  }) => {
    const session = await e.createSession({ dcql: sdJwtQuery(), responseMode: 'direct_post.jwt' });
    const facts = requestFacts(await resolveRedirectRequest(e.wallet, session.authorizationRequestUri!));
    const recipientJwk = facts.encryptionJwk!;
    const bare = buildJwe({ recipientJwk, payload: { error: 'access_denied' } });
    expect(await e.postForm(session.responseUri!, { response: bare })).toEqual({ status: 400, body: STATE_REQUIRED });
    await expectSessionUnchanged(e, sessionEvents, session);
    const stated = buildJwe({ recipientJwk, payload: { error: 'access_denied', state: session.payloadState } });
    expect(await e.postForm(session.responseUri!, { response: stated })).toEqual({ status: 200, body: {} });
    expect(await e.readSession(session.id)).toMatchObject({ state: 'Error', error: { code: 'WALLET_ERROR' } });
  });
});
