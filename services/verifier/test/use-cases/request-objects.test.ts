import { describe, expect } from 'vitest';
import { decodeJwt } from 'jose';
import { metricSample } from '@tessera/service-kit/testing';
import { fetchRequestObject } from '../../src/use-cases/fetch-request-object.js';
import { readPresentationSessions } from '../../src/use-cases/read-presentation-sessions.js';
import { ORG } from '../support/management.js';
import { createPidSession, useCaseTest as test, valueOf } from '../support/use-cases.js';

// The wallet fetches the request object by reference (VERIFIER.md, Wallet-facing
// endpoints): the object signed at creation, or one signed now to echo its
// wallet_nonce. What it may not have is a refusal the route answers as OAuth does.
const page = { page: 1, pageSize: 10, offset: 0 };

describe('fetching the request object', () => {
  test('the first fetch serves the stored object and moves the session to RequestUriRetrieved, once', async ({
    world,
  }) => {
    const { deps, events } = world;
    const session = await createPidSession(world);
    const fetch = () => fetchRequestObject(deps, { authorizationRequestId: session.authorizationRequestId });
    expect(valueOf(await fetch())).toBe(session.requestObject);
    expect(valueOf(await fetch())).toBe(session.requestObject);
    const read = await readPresentationSessions(deps, { orgId: ORG, id: session.id, filters: {}, page });
    expect(read).toMatchObject({ session: { state: 'RequestUriRetrieved' } });
    await events.waitFor(session.id, 'RequestUriRetrieved');
    expect(events.of(session.id, 'RequestUriRetrieved')).toHaveLength(1);
  });

  test('a fetch with a wallet_nonce gets an object signed now that echoes it', async ({ world }) => {
    const session = await createPidSession(world);
    const jwt = valueOf(
      await fetchRequestObject(world.deps, {
        authorizationRequestId: session.authorizationRequestId,
        walletNonce: 'wallet-nonce-1',
        walletMetadata: '{"vp_formats_supported":{}}',
      }),
    );
    expect(jwt).not.toBe(session.requestObject);
    expect(decodeJwt(jwt)).toMatchObject({
      wallet_nonce: 'wallet-nonce-1',
      nonce: session.nonce,
      client_id: session.clientId,
    });
  });

  test('refusals: no such request, a DC API session, bad wallet_metadata, an expired session; each counted by its OAuth code', async ({
    world,
  }) => {
    const { deps } = world;
    const fetch = (authorizationRequestId: string, walletMetadata?: string) =>
      fetchRequestObject(deps, { authorizationRequestId, ...(walletMetadata ? { walletMetadata } : {}) });
    expect(await fetch('no-such-request')).toEqual({ ok: false, refusal: { kind: 'unknown-request' } });
    const dcApi = await createPidSession(world, { responseMode: 'dc_api', expectedOrigins: ['https://rp.example'] });
    expect(await fetch(dcApi.authorizationRequestId)).toEqual({
      ok: false,
      refusal: {
        kind: 'request-unavailable',
        description: 'This request is delivered through the Digital Credentials API, not by reference.',
      },
    });
    const session = await createPidSession(world);
    expect(await fetch(session.authorizationRequestId, '[1,2]')).toEqual({
      ok: false,
      refusal: { kind: 'invalid-request', description: 'wallet_metadata must be a JSON object.' },
    });
    deps.clock.offsetMs = (deps.sessionTtlSeconds + 1) * 1000;
    try {
      expect(await fetch(session.authorizationRequestId)).toEqual({
        ok: false,
        refusal: { kind: 'request-unavailable', description: 'The authorization request has expired.' },
      });
    } finally {
      deps.clock.offsetMs = 0;
    }
    const scrape = await world.registry.metrics();
    const fetches = (result: string) =>
      metricSample(scrape, 'tessera_verifier_request_object_fetches_total', { result }) ?? 0;
    expect(fetches('invalid_request_uri')).toBe(3);
    expect(fetches('invalid_request')).toBe(1);
  });

  test('fetches beyond the session’s limit are refused with the seconds until its window ends', async ({ world }) => {
    const limited = { ...world.deps, sessionLimits: { requestFetches: 2, responses: 2, windowMs: 60_000 } };
    const session = await createPidSession(world);
    const fetch = () => fetchRequestObject(limited, { authorizationRequestId: session.authorizationRequestId });
    expect((await fetch()).ok).toBe(true);
    expect((await fetch()).ok).toBe(true);
    const refused = await fetch();
    expect(refused).toMatchObject({ ok: false, refusal: { kind: 'over-limit' } });
    const seconds = !refused.ok && refused.refusal.kind === 'over-limit' ? refused.refusal.retryAfterSeconds : 0;
    expect(seconds).toBeGreaterThan(0);
    expect(seconds).toBeLessThanOrEqual(60);
  });
});
