import { deflateSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHarness, type Harness } from '../support/harness.js';
import { ORG, sdJwtQuery } from '../support/fixtures.js';
import { snapshotWithoutSessionCounters } from '../support/state-snapshot.js';

// Issue 7: body and decompression limits, and rate limits on the public OID4VP
// endpoints. Bodies over MAX_BODY_BYTES answer 413 on JSON and form routes; a
// compressed body (Content-Encoding gzip/deflate) is never inflated: refused with
// 400 or 415, nothing stored.
const LIMIT = 64 * 1024;
const ORIGIN = 'https://rp.tessera.test';
let h: Harness;
let headers: { authorization: string };
let redirect: any;
let dc: any;

beforeAll(async () => {
  h = await createHarness({ config: { MAX_BODY_BYTES: String(LIMIT) } });
  headers = await h.auth(ORG);
  await h.app.inject({ method: 'POST', url: `/v1/orgs/${ORG}/oid4vp/verifier`, headers, payload: { verifierId: 'desk' } });
  const create = async (payload: object) => (await h.app.inject({ method: 'POST', url: `/v1/orgs/${ORG}/oid4vp/presentation?verifierId=desk`, headers, payload })).json().data;
  redirect = await create({ dcql: sdJwtQuery(), responseMode: 'direct_post' });
  dc = await create({ dcql: sdJwtQuery(), responseMode: 'dc_api', expectedOrigins: [ORIGIN] });
});
afterAll(() => h?.close());

const form = (fields: Record<string, string>) => new URLSearchParams(fields).toString();
// Per-session request counts move on every request that names a session (support/state-snapshot.ts).
const snapshot = () => snapshotWithoutSessionCounters(h.testDb.database);

describe('body limits', () => {
  it('answers 413 above MAX_BODY_BYTES on JSON and form routes, in each route’s error shape, and changes nothing', async () => {
    const before = await snapshot();
    const big = 'x'.repeat(LIMIT + 1);
    const json = [
      { url: `/v1/orgs/${ORG}/oid4vp/verifier`, payload: JSON.stringify({ verifierId: 'big', clientMetadata: { client_name: big } }) },
      { url: `/v1/orgs/${ORG}/oid4vp/verify-authorization-response`, payload: JSON.stringify({ verificationSessionId: dc.id, authorizationResponse: { vp_token: { pid: [big] } }, origin: ORIGIN }) },
    ];
    for (const { url, payload } of json) {
      const response = await h.app.inject({ method: 'POST', url, headers: { ...headers, 'content-type': 'application/json' }, payload });
      expect(response.statusCode, url).toBe(413);
      expect(response.json()).toMatchObject({ statusCode: 413, code: 'BODY_TOO_LARGE' });
    }
    const forms = [`/oid4vp/authorization-responses/${redirect.authorizationRequestId}`, `/oid4vp/authorization-requests/${redirect.authorizationRequestId}`];
    for (const url of forms) {
      const response = await h.app.inject({ method: 'POST', url, headers: { 'content-type': 'application/x-www-form-urlencoded' }, payload: form({ vp_token: JSON.stringify({ pid: [big] }), state: redirect.payloadState, wallet_metadata: '{}' }) });
      expect(response.statusCode, url).toBe(413);
      expect(response.json()).toEqual({ error: expect.any(String), error_description: expect.any(String) });
    }
    // A body just under the limit is read (and refused on its merits, not its size).
    const under = await h.app.inject({ method: 'POST', url: forms[0]!, headers: { 'content-type': 'application/x-www-form-urlencoded' }, payload: form({ vp_token: 'x'.repeat(LIMIT - 100), state: 'wrong' }) });
    expect(under.statusCode).toBe(400);
    expect(await snapshot()).toEqual(before);
  });

  it('never inflates a gzip or deflate request body: 400 or 415, nothing stored', async () => {
    const before = await snapshot();
    // Small on the wire, 16 MB inflated: a decompression bomb if anything inflated it.
    const bomb = JSON.stringify({ verifierId: 'zipped', clientMetadata: { client_name: 'a'.repeat(16 * 1024 * 1024) } });
    const cases = [
      { encoding: 'gzip', body: gzipSync(bomb), type: 'application/json', url: `/v1/orgs/${ORG}/oid4vp/verifier` },
      { encoding: 'deflate', body: deflateSync(bomb), type: 'application/json', url: `/v1/orgs/${ORG}/oid4vp/verifier` },
      { encoding: 'gzip', body: gzipSync(JSON.stringify({ verifierId: 'zipped' })), type: 'application/json', url: `/v1/orgs/${ORG}/oid4vp/verifier` },
      { encoding: 'gzip', body: gzipSync(JSON.stringify({ verificationSessionId: dc.id, authorizationResponse: { error: 'access_denied' }, origin: ORIGIN })), type: 'application/json', url: `/v1/orgs/${ORG}/oid4vp/verify-authorization-response` },
      { encoding: 'gzip', body: gzipSync(form({ error: 'access_denied', state: redirect.payloadState })), type: 'application/x-www-form-urlencoded', url: `/oid4vp/authorization-responses/${redirect.authorizationRequestId}` },
      { encoding: 'deflate', body: deflateSync(form({ vp_token: 'a'.repeat(16 * 1024 * 1024), state: redirect.payloadState })), type: 'application/x-www-form-urlencoded', url: `/oid4vp/authorization-responses/${redirect.authorizationRequestId}` },
    ];
    for (const { encoding, body, type, url } of cases) {
      expect(body.length).toBeLessThan(LIMIT);
      const response = await h.app.inject({ method: 'POST', url, headers: { ...headers, 'content-type': type, 'content-encoding': encoding }, payload: body });
      expect([400, 415], `${encoding} ${url} → ${response.statusCode} ${response.body}`).toContain(response.statusCode);
    }
    expect(await snapshot()).toEqual(before);
    expect((await h.app.inject({ url: `/v1/orgs/${ORG}/oid4vp/verifier/zipped`, headers })).statusCode).toBe(404);
  });
});

describe('rate limits on the public OID4VP endpoints', () => {
  let limited: Harness;
  beforeAll(async () => {
    limited = await createHarness({ config: { WALLET_RATE_LIMIT_MAX: '3', WALLET_RATE_LIMIT_WINDOW_MS: '60000' } });
  });
  afterAll(() => limited?.close());

  it('answers 429 with Retry-After and an OAuth body on the request and response endpoints, per client address', async () => {
    const urls = [
      { method: 'POST' as const, url: '/oid4vp/authorization-responses/unknown' },
      { method: 'POST' as const, url: '/oid4vp/authorization-requests/unknown' },
      { method: 'GET' as const, url: '/oid4vp/authorization-requests/unknown' },
    ];
    for (const { method, url } of urls) {
      const send = (remoteAddress = '10.1.1.1') => limited.app.inject({ method, url, remoteAddress, headers: { 'content-type': 'application/x-www-form-urlencoded' }, ...(method === 'POST' ? { payload: form({ error: 'access_denied' }) } : {}) });
      for (let i = 0; i < 3; i++) expect((await send()).statusCode).toBe(404);
      const over = await send();
      expect(over.statusCode, `${method} ${url}`).toBe(429);
      expect(Number(over.headers['retry-after'])).toBeGreaterThan(0);
      expect(over.json()).toEqual({ error: 'temporarily_unavailable', error_description: expect.any(String) });
      expect((await send('10.1.1.2')).statusCode).toBe(404);
    }
  });
});
