import { describe, expect } from 'vitest';
import type { CreatedPresentation } from '@tessera/contracts';
import { missingServer } from '@tessera/service-kit/testing';
import { loadVerifierConfig } from '../../src/config.js';
import { sdJwtQuery } from '../support/dcql-queries.js';
import { e2eTest, harnessFixture } from '../support/fixtures.js';
import { PUBLIC_BASE_URL } from '../support/harness.js';
import { httpFetch, presentPid, requestFacts, resolveDcApiRequest, resolveRedirectRequest } from '../support/holder.js';
import { issuePid, newHolder } from '../support/issuers.js';
import { ORG } from '../support/management.js';

// Rate limits that survive carrier-grade NAT: the per-address limit is generous
// (1000/min by default), and each session bounds its own request-object fetches
// (10 per window) and answers (5 per window), counted in PostgreSQL so every
// replica shares the count. Over real HTTP; the per-session defaults are in force
// (the harness raises them for other tests; an empty variable reads as unset).
const ORIGIN = 'https://rp.tessera.test';
const DEFAULT_LIMITS = { SESSION_REQUEST_FETCH_LIMIT: '', SESSION_RESPONSE_LIMIT: '' };
// `replicaFetch`: a fetch reaching a second app on the same database (same key
// encryption key), listening on 127.0.0.1, as a second pod would be.
const test = e2eTest({ config: DEFAULT_LIMITS }).extend(
  'replicaFetch',
  { scope: 'file' },
  async ({ harness }, hooks): Promise<typeof fetch> => {
    const replica = await harnessFixture({
      databaseUrl: harness.testDb.url!,
      config: { ...DEFAULT_LIMITS, KEY_ENCRYPTION_KEY: harness.config.KEY_ENCRYPTION_KEY! },
    })({}, hooks);
    return httpFetch(PUBLIC_BASE_URL, await replica.app.listen({ host: '127.0.0.1', port: 0 }));
  },
);

const fetchRequest = (fetcher: typeof fetch, session: CreatedPresentation, method: 'GET' | 'POST' = 'GET') =>
  fetcher(
    session.requestUri!,
    method === 'POST'
      ? { method, headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: 'wallet_nonce=n' }
      : {},
  );

async function expectTooMany(response: Response, windowSeconds = 60) {
  expect(response.status).toBe(429);
  const retryAfter = Number(response.headers.get('retry-after'));
  expect(retryAfter).toBeGreaterThan(0);
  expect(retryAfter).toBeLessThanOrEqual(windowSeconds);
  expect(await response.json()).toEqual({ error: 'temporarily_unavailable', error_description: expect.any(String) });
}

describe('defaults', () => {
  test('1000 requests per address and minute, 10 request-object fetches and 5 answers per session and window', ({
    harness,
  }) => {
    const config = loadVerifierConfig({ NODE_ENV: 'development' });
    expect(config).toMatchObject({
      WALLET_RATE_LIMIT_MAX: 1000,
      WALLET_RATE_LIMIT_WINDOW_MS: 60_000,
      SESSION_REQUEST_FETCH_LIMIT: 10,
      SESSION_RESPONSE_LIMIT: 5,
    });
    expect(harness.config).toMatchObject({ SESSION_REQUEST_FETCH_LIMIT: 10, SESSION_RESPONSE_LIMIT: 5 });
  });
});

describe('request-object fetches per session', () => {
  test('the 11th fetch of one session is 429 with Retry-After and an OAuth body; another session from the same address is served', async ({
    e2e: e,
  }) => {
    const session = await e.createSession({ dcql: sdJwtQuery(), responseMode: 'direct_post' });
    for (let i = 0; i < 10; i++)
      expect((await fetchRequest(e.wallet.fetch, session, i % 2 === 0 ? 'GET' : 'POST')).status).toBe(200);
    await expectTooMany(await fetchRequest(e.wallet.fetch, session));
    await expectTooMany(await fetchRequest(e.wallet.fetch, session, 'POST'));
    const other = await e.createSession({ dcql: sdJwtQuery(), responseMode: 'direct_post' });
    expect((await fetchRequest(e.wallet.fetch, other)).status).toBe(200);
  });

  test('the count restarts when the window has passed', async ({ e2e: e, harness }) => {
    const session = await e.createSession({ dcql: sdJwtQuery(), responseMode: 'direct_post', expiresInSeconds: 600 });
    for (let i = 0; i < 10; i++) await fetchRequest(e.wallet.fetch, session);
    expect((await fetchRequest(e.wallet.fetch, session)).status).toBe(429);
    harness.clock.offsetMs = 61_000;
    try {
      expect((await fetchRequest(e.wallet.fetch, session)).status).toBe(200);
    } finally {
      harness.clock.offsetMs = 0;
    }
  });
});

describe('answers per session', () => {
  test('after 5 answers the 6th is 429, even a valid one, and the session is unchanged; the window’s end lets the valid one verify', async ({
    e2e: e,
    harness,
  }) => {
    const session = await e.createSession({ dcql: sdJwtQuery(), responseMode: 'direct_post', expiresInSeconds: 600 });
    const responseUri = session.responseUri!;
    const holder = await newHolder();
    const resolved = await resolveRedirectRequest(e.wallet, session.authorizationRequestUri!);
    const vpToken = JSON.stringify({
      pid: [await presentPid(await issuePid(e.issuer, holder), holder, requestFacts(resolved))],
    });
    for (let i = 0; i < 5; i++)
      expect((await e.postForm(responseUri, { vp_token: vpToken, state: 'not-the-state' })).status).toBe(400);
    const post = () =>
      e.wallet.fetch(responseUri, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ vp_token: vpToken, state: session.payloadState }).toString(),
      });
    await expectTooMany(await post());
    expect((await e.readSession(session.id)).state).toBe('RequestUriRetrieved');
    harness.clock.offsetMs = 61_000;
    try {
      const answered = await post();
      expect(answered.status).toBe(200);
      expect((await e.readSession(session.id)).state).toBe('ResponseVerified');
    } finally {
      harness.clock.offsetMs = 0;
    }
  });

  test('the DC API call counts answers too: the 6th is 429 RATE_LIMITED (platform body) with Retry-After', async ({
    e2e: e,
    harness,
  }) => {
    const session = await e.createSession({ dcql: sdJwtQuery(), responseMode: 'dc_api', expectedOrigins: [ORIGIN] });
    const resolved = await resolveDcApiRequest(e.wallet, session.dcApiRequest!.data, ORIGIN);
    const holder = await newHolder();
    const vpToken = {
      pid: [await presentPid(await issuePid(e.issuer, holder), holder, requestFacts(resolved), { origin: ORIGIN })],
    };
    for (let i = 0; i < 5; i++) {
      expect(
        (
          await e.verifyDcApi({
            verificationSessionId: session.id,
            authorizationResponse: { vp_token: vpToken },
            origin: 'https://evil.tessera.test',
          })
        ).body.code,
      ).toBe('ORIGIN_NOT_ALLOWED');
    }
    const response = await fetch(`${e.url}/v1/orgs/${ORG}/oid4vp/verify-authorization-response`, {
      method: 'POST',
      headers: { ...(await harness.auth(ORG)), 'content-type': 'application/json' },
      body: JSON.stringify({
        verificationSessionId: session.id,
        authorizationResponse: { vp_token: vpToken },
        origin: ORIGIN,
      }),
    });
    expect(response.status).toBe(429);
    expect(Number(response.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(await response.json()).toMatchObject({ statusCode: 429, code: 'RATE_LIMITED', message: expect.any(String) });
    expect((await e.readSession(session.id)).state).toBe('RequestCreated');
  });
});

// The second app opens the same database by URL: server PostgreSQL.
describe.skipIf(missingServer('postgres', 'verifier per-session limits across replicas'))(
  'one count across replicas',
  () => {
    test('fetches spread over two replicas share the session’s limit', async ({ e2e: e, replicaFetch }) => {
      const session = await e.createSession({ dcql: sdJwtQuery(), responseMode: 'direct_post' });
      await Promise.all(
        Array.from({ length: 10 }, (_, i) =>
          fetchRequest(i % 2 === 0 ? e.wallet.fetch : replicaFetch, session, 'GET').then((response) =>
            expect(response.status).toBe(200),
          ),
        ),
      );
      await expectTooMany(await fetchRequest(replicaFetch, session, 'GET'));
      await expectTooMany(await fetchRequest(e.wallet.fetch, session, 'GET'));
    });
  },
);
