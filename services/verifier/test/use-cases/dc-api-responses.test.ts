import { describe, expect } from 'vitest';
import { listPresentationReads } from '../../src/use-cases/list-presentation-reads.js';
import { readPresentationSessions } from '../../src/use-cases/read-presentation-sessions.js';
import { verifyDcApiResponse } from '../../src/use-cases/verify-dc-api-response.js';
import { createIssuer, issuePid, newHolder } from '../support/issuers.js';
import { presentPid } from '../support/holder.js';
import { ORG, OTHER_ORG } from '../support/management.js';
import {
  createPidSession,
  presentPidFor,
  useCaseTest as test,
  type CreatedSession,
  type UseCaseWorld,
} from '../support/use-cases.js';

// The browser's answer over the Digital Credentials API, forwarded by the relying
// party (VERIFIER.md, DC API flow): refusals leave the session unchanged; a processed
// answer settles it, verified or not; a verified one is recorded as read by the caller.
const ORIGIN = 'https://rp.example';
const page = { page: 1, pageSize: 10, offset: 0 };

const dcApiSession = (world: UseCaseWorld, responseMode: 'dc_api' | 'dc_api.jwt' = 'dc_api') =>
  createPidSession(world, { responseMode, expectedOrigins: [ORIGIN] });

/** The browser's answer: the PID presented with a KB-JWT for `origin:<ORIGIN>` and the session's nonce. */
async function pidAnswer(world: UseCaseWorld, session: CreatedSession) {
  const facts = { clientId: session.clientId, nonce: session.nonce, responseMode: session.responseMode };
  return { vp_token: { pid: [await presentPidFor(world, facts, { origin: ORIGIN })] } };
}

const verify = (
  world: UseCaseWorld,
  session: CreatedSession,
  authorizationResponse: Record<string, unknown>,
  options: { origin?: string; orgId?: string } = {},
) =>
  verifyDcApiResponse(world.deps, {
    orgId: options.orgId ?? ORG,
    verificationSessionId: session.id,
    authorizationResponse,
    origin: options.origin ?? ORIGIN,
    subject: 'rp-backend',
  });

async function stateOf(world: UseCaseWorld, session: CreatedSession) {
  const read = await readPresentationSessions(world.deps, { orgId: ORG, id: session.id, filters: {}, page });
  return read.kind === 'one' ? read.session.state : undefined;
}

describe('verifying a DC API response', () => {
  test('a verified answer settles the session, hands back the result and records the caller as its reader', async ({
    world,
  }) => {
    const session = await dcApiSession(world);
    const settled = await verify(world, session, await pidAnswer(world, session));
    expect(settled).toMatchObject({
      state: 'ResponseVerified',
      result: { presentations: [{ credentialQueryId: 'pid', claims: { given_name: 'Erika' } }] },
    });
    expect(await stateOf(world, session)).toBe('ResponseVerified');
    const reads = await listPresentationReads(world.deps, { orgId: ORG, sessionId: session.id, page });
    expect(reads.rows).toMatchObject([{ subject: 'rp-backend', route: 'verify-authorization-response' }]);
    // Settled once: a second answer finds the session closed.
    await expect(verify(world, session, await pidAnswer(world, session))).rejects.toMatchObject({
      statusCode: 409,
      code: 'SESSION_CLOSED',
    });
  });

  test('an answer that fails verification settles the session in Error and is answered, not thrown', async ({
    world,
  }) => {
    const session = await dcApiSession(world);
    const stranger = await createIssuer('Unlisted DC API Issuer');
    const holder = await newHolder();
    const facts = { clientId: session.clientId, nonce: session.nonce, responseMode: session.responseMode };
    const presentation = await presentPid(await issuePid(stranger, holder), holder, facts, { origin: ORIGIN });
    expect(await verify(world, session, { vp_token: { pid: [presentation] } })).toMatchObject({
      state: 'Error',
      error: { code: 'ISSUER_NOT_TRUSTED' },
    });
    expect((await listPresentationReads(world.deps, { orgId: ORG, sessionId: session.id, page })).total).toBe(0);
  });

  test('refusals leave the session unchanged: an origin not expected, plaintext to dc_api.jwt, an unreadable answer', async ({
    world,
  }) => {
    const session = await dcApiSession(world);
    const answer = await pidAnswer(world, session);
    await expect(verify(world, session, answer, { origin: 'https://evil.example' })).rejects.toMatchObject({
      statusCode: 400,
      code: 'ORIGIN_NOT_ALLOWED',
    });
    await expect(verify(world, session, { vp_token: 'not an object' })).rejects.toMatchObject({ statusCode: 400 });
    expect(await stateOf(world, session)).toBe('RequestCreated');

    const encrypted = await dcApiSession(world, 'dc_api.jwt');
    await expect(verify(world, encrypted, await pidAnswer(world, encrypted))).rejects.toMatchObject({
      statusCode: 400,
      code: 'RESPONSE_NOT_ENCRYPTED',
    });
    expect(await stateOf(world, encrypted)).toBe('RequestCreated');
  });

  test('only DC API sessions of the caller’s organisation are answered here', async ({ world }) => {
    const redirect = await createPidSession(world);
    await expect(verify(world, redirect, { vp_token: {} })).rejects.toMatchObject({
      statusCode: 409,
      code: 'NOT_DC_API_SESSION',
    });
    const session = await dcApiSession(world);
    await expect(verify(world, session, { vp_token: {} }, { orgId: OTHER_ORG })).rejects.toMatchObject({
      statusCode: 404,
    });
  });

  test('answers beyond the session’s limit are refused with the seconds to wait', async ({ world }) => {
    const limited = { ...world.deps, sessionLimits: { requestFetches: 10, responses: 1, windowMs: 60_000 } };
    const session = await dcApiSession(world);
    const input = {
      orgId: ORG,
      verificationSessionId: session.id,
      authorizationResponse: { vp_token: 'junk' },
      origin: ORIGIN,
      subject: 'rp-backend',
    };
    await expect(verifyDcApiResponse(limited, input)).rejects.toMatchObject({ statusCode: 400 });
    await expect(verifyDcApiResponse(limited, input)).rejects.toMatchObject({
      statusCode: 429,
      code: 'RATE_LIMITED',
      retryAfterSeconds: expect.any(Number),
    });
  });
});
