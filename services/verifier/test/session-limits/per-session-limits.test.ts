import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadVerifierConfig } from '../../src/config.js';
import { createE2e, type E2e } from '../support/e2e.js';
import { ORG, sdJwtQuery } from '../support/fixtures.js';
import { createHarness, PUBLIC_BASE_URL, type Harness } from '../support/harness.js';
import { httpFetch, presentPid, requestFacts, resolveDcApiRequest, resolveRedirectRequest } from '../support/holder.js';
import { issuePid, newHolder } from '../support/issuers.js';

// Rate limits that survive carrier-grade NAT: the per-address limit is generous
// (1000/min by default), and each session bounds its own request-object fetches
// (10 per window) and answers (5 per window), counted in PostgreSQL so every
// replica shares the count. Over real HTTP; the per-session defaults are in force
// (the harness raises them for other tests; an empty variable reads as unset).
const ORIGIN = 'https://rp.tessera.test';
const DEFAULT_LIMITS = { SESSION_REQUEST_FETCH_LIMIT: '', SESSION_RESPONSE_LIMIT: '' };
let e: E2e;
beforeAll(async () => {
  e = await createE2e({ config: DEFAULT_LIMITS });
});
afterAll(() => e?.close());

const fetchRequest = (session: any, method: 'GET' | 'POST' = 'GET', fetcher: typeof fetch = e.wallet.fetch) =>
  fetcher(session.requestUri, method === 'POST' ? { method, headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: 'wallet_nonce=n' } : {});

async function expectTooMany(response: Response, windowSeconds = 60) {
  expect(response.status).toBe(429);
  const retryAfter = Number(response.headers.get('retry-after'));
  expect(retryAfter).toBeGreaterThan(0);
  expect(retryAfter).toBeLessThanOrEqual(windowSeconds);
  expect(await response.json()).toEqual({ error: 'temporarily_unavailable', error_description: expect.any(String) });
}

describe('defaults', () => {
  it('1000 requests per address and minute, 10 request-object fetches and 5 answers per session and window', () => {
    const config = loadVerifierConfig({ NODE_ENV: 'development' });
    expect(config).toMatchObject({ WALLET_RATE_LIMIT_MAX: 1000, WALLET_RATE_LIMIT_WINDOW_MS: 60_000, SESSION_REQUEST_FETCH_LIMIT: 10, SESSION_RESPONSE_LIMIT: 5 });
    expect(e.h.config).toMatchObject({ SESSION_REQUEST_FETCH_LIMIT: 10, SESSION_RESPONSE_LIMIT: 5 });
  });
});

describe('request-object fetches per session', () => {
  it('the 11th fetch of one session is 429 with Retry-After and an OAuth body; another session from the same address is served', async () => {
    const session = await e.createSession({ dcql: sdJwtQuery(), responseMode: 'direct_post' });
    for (let i = 0; i < 10; i++) expect((await fetchRequest(session, i % 2 === 0 ? 'GET' : 'POST')).status).toBe(200);
    await expectTooMany(await fetchRequest(session));
    await expectTooMany(await fetchRequest(session, 'POST'));
    const other = await e.createSession({ dcql: sdJwtQuery(), responseMode: 'direct_post' });
    expect((await fetchRequest(other)).status).toBe(200);
  });

  it('the count restarts when the window has passed', async () => {
    const session = await e.createSession({ dcql: sdJwtQuery(), responseMode: 'direct_post', expiresInSeconds: 600 });
    for (let i = 0; i < 10; i++) await fetchRequest(session);
    expect((await fetchRequest(session)).status).toBe(429);
    e.h.clock.offsetMs = 61_000;
    try {
      expect((await fetchRequest(session)).status).toBe(200);
    } finally {
      e.h.clock.offsetMs = 0;
    }
  });
});

describe('answers per session', () => {
  it('after 5 answers the 6th is 429, even a valid one, and the session is unchanged; the window’s end lets the valid one verify', async () => {
    const session = await e.createSession({ dcql: sdJwtQuery(), responseMode: 'direct_post', expiresInSeconds: 600 });
    const holder = await newHolder();
    const resolved = await resolveRedirectRequest(e.wallet, session.authorizationRequestUri);
    const vpToken = JSON.stringify({ pid: [await presentPid(await issuePid(e.issuer, holder), holder, requestFacts(resolved))] });
    for (let i = 0; i < 5; i++) expect((await e.postForm(session.responseUri, { vp_token: vpToken, state: 'not-the-state' })).status).toBe(400);
    const post = () => e.wallet.fetch(session.responseUri, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams({ vp_token: vpToken, state: session.payloadState }).toString() });
    await expectTooMany(await post());
    expect((await e.readSession(session.id)).state).toBe('RequestUriRetrieved');
    e.h.clock.offsetMs = 61_000;
    try {
      const answered = await post();
      expect(answered.status).toBe(200);
      expect((await e.readSession(session.id)).state).toBe('ResponseVerified');
    } finally {
      e.h.clock.offsetMs = 0;
    }
  });

  it('the DC API call counts answers too: the 6th is 429 RATE_LIMITED (platform body) with Retry-After', async () => {
    const session = await e.createSession({ dcql: sdJwtQuery(), responseMode: 'dc_api', expectedOrigins: [ORIGIN] });
    const resolved = await resolveDcApiRequest(e.wallet, session.dcApiRequest.data, ORIGIN);
    const holder = await newHolder();
    const vpToken = { pid: [await presentPid(await issuePid(e.issuer, holder), holder, requestFacts(resolved), { origin: ORIGIN })] };
    for (let i = 0; i < 5; i++) {
      expect((await e.verifyDcApi({ verificationSessionId: session.id, authorizationResponse: { vp_token: vpToken }, origin: 'https://evil.tessera.test' })).body.code).toBe('ORIGIN_NOT_ALLOWED');
    }
    const response = await fetch(`${e.url}/v1/orgs/${ORG}/oid4vp/verify-authorization-response`, {
      method: 'POST',
      headers: { ...(await e.h.auth(ORG)), 'content-type': 'application/json' },
      body: JSON.stringify({ verificationSessionId: session.id, authorizationResponse: { vp_token: vpToken }, origin: ORIGIN }),
    });
    expect(response.status).toBe(429);
    expect(Number(response.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(await response.json()).toMatchObject({ statusCode: 429, code: 'RATE_LIMITED', message: expect.any(String) });
    expect((await e.readSession(session.id)).state).toBe('RequestCreated');
  });
});

describe('one count across replicas', () => {
  let replica: Harness;
  let replicaFetch: typeof fetch;
  beforeAll(async () => {
    // A second app on the same database (same key encryption key), as a second pod would be.
    replica = await createHarness({ testDb: e.h.testDb, config: { ...DEFAULT_LIMITS, KEY_ENCRYPTION_KEY: e.h.config.KEY_ENCRYPTION_KEY! } });
    replicaFetch = httpFetch(PUBLIC_BASE_URL, await replica.app.listen({ host: '127.0.0.1', port: 0 }));
  });
  afterAll(() => replica?.close());

  it('fetches spread over two replicas share the session’s limit', async () => {
    const session = await e.createSession({ dcql: sdJwtQuery(), responseMode: 'direct_post' });
    await Promise.all(Array.from({ length: 10 }, (_, i) => fetchRequest(session, 'GET', i % 2 === 0 ? e.wallet.fetch : replicaFetch).then((response) => expect(response.status).toBe(200))));
    await expectTooMany(await fetchRequest(session, 'GET', replicaFetch));
    await expectTooMany(await fetchRequest(session, 'GET', e.wallet.fetch));
  });
});
