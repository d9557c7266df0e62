import { deflateSync, gzipSync } from 'node:zlib';
import { describe, expect } from 'vitest';
import { sdJwtQuery } from '../support/dcql-queries.js';
import { harnessTest } from '../support/fixtures.js';
import { ORG } from '../support/management.js';
import { snapshotWithoutSessionCounters } from '../support/state-snapshot.js';

// Bodies over MAX_BODY_BYTES answer 413 on JSON and form routes; a compressed body
// (Content-Encoding gzip/deflate) is never inflated: refused with 400 or 415,
// nothing stored.
const LIMIT = 64 * 1024;
const ORIGIN = 'https://rp.tessera.test';

// Two sessions of ORG's verifier `desk` the oversized bodies are aimed at, a redirect one and a DC API one.
const test = harnessTest({ config: { MAX_BODY_BYTES: String(LIMIT) } }).extend(
  'sessions',
  { scope: 'file' },
  async ({ api, desk }) => {
    const create = async (payload: object) =>
      (await api('POST', `/v1/orgs/${ORG}/oid4vp/presentation?verifierId=${desk}`, payload)).body.data;
    return {
      redirect: await create({ dcql: sdJwtQuery(), responseMode: 'direct_post' }),
      dc: await create({ dcql: sdJwtQuery(), responseMode: 'dc_api', expectedOrigins: [ORIGIN] }),
    };
  },
);

const form = (fields: Record<string, string>) => new URLSearchParams(fields).toString();

describe('body limits', () => {
  test('answers 413 above MAX_BODY_BYTES on JSON and form routes, in each route’s error shape, and changes nothing', async ({
    harness: h,
    sessions: { redirect, dc },
  }) => {
    const headers = await h.auth(ORG);
    // Per-session request counts move on every request that names a session (support/state-snapshot.ts).
    const snapshot = () => snapshotWithoutSessionCounters(h.testDb.database);
    const before = await snapshot();
    const big = 'x'.repeat(LIMIT + 1);
    const json = [
      {
        url: `/v1/orgs/${ORG}/oid4vp/verifier`,
        payload: JSON.stringify({ verifierId: 'big', clientMetadata: { client_name: big } }),
      },
      {
        url: `/v1/orgs/${ORG}/oid4vp/verify-authorization-response`,
        payload: JSON.stringify({
          verificationSessionId: dc.id,
          authorizationResponse: { vp_token: { pid: [big] } },
          origin: ORIGIN,
        }),
      },
    ];
    for (const { url, payload } of json) {
      const response = await h.app.inject({
        method: 'POST',
        url,
        headers: { ...headers, 'content-type': 'application/json' },
        payload,
      });
      expect(response.statusCode, url).toBe(413);
      expect(response.json()).toMatchObject({ statusCode: 413, code: 'BODY_TOO_LARGE' });
    }
    const forms = [
      `/oid4vp/authorization-responses/${redirect.authorizationRequestId}`,
      `/oid4vp/authorization-requests/${redirect.authorizationRequestId}`,
    ];
    for (const url of forms) {
      const response = await h.app.inject({
        method: 'POST',
        url,
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        payload: form({
          vp_token: JSON.stringify({ pid: [big] }),
          state: redirect.payloadState,
          wallet_metadata: '{}',
        }),
      });
      expect(response.statusCode, url).toBe(413);
      expect(response.json()).toEqual({ error: expect.any(String), error_description: expect.any(String) });
    }
    // A body just under the limit is read (and refused on its merits, not its size).
    const under = await h.app.inject({
      method: 'POST',
      url: forms[0]!,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: form({ vp_token: 'x'.repeat(LIMIT - 100), state: 'wrong' }),
    });
    expect(under.statusCode).toBe(400);
    expect(await snapshot()).toEqual(before);
  });

  test('never inflates a gzip or deflate request body: 400 or 415, nothing stored', async ({
    harness: h,
    sessions: { redirect, dc },
  }) => {
    const headers = await h.auth(ORG);
    // Per-session request counts move on every request that names a session (support/state-snapshot.ts).
    const snapshot = () => snapshotWithoutSessionCounters(h.testDb.database);
    const before = await snapshot();
    // Small on the wire, 16 MB inflated: a decompression bomb if anything inflated it.
    const bomb = JSON.stringify({
      verifierId: 'zipped',
      clientMetadata: { client_name: 'a'.repeat(16 * 1024 * 1024) },
    });
    const cases = [
      { encoding: 'gzip', body: gzipSync(bomb), type: 'application/json', url: `/v1/orgs/${ORG}/oid4vp/verifier` },
      {
        encoding: 'deflate',
        body: deflateSync(bomb),
        type: 'application/json',
        url: `/v1/orgs/${ORG}/oid4vp/verifier`,
      },
      {
        encoding: 'gzip',
        body: gzipSync(JSON.stringify({ verifierId: 'zipped' })),
        type: 'application/json',
        url: `/v1/orgs/${ORG}/oid4vp/verifier`,
      },
      {
        encoding: 'gzip',
        body: gzipSync(
          JSON.stringify({
            verificationSessionId: dc.id,
            authorizationResponse: { error: 'access_denied' },
            origin: ORIGIN,
          }),
        ),
        type: 'application/json',
        url: `/v1/orgs/${ORG}/oid4vp/verify-authorization-response`,
      },
      {
        encoding: 'gzip',
        body: gzipSync(form({ error: 'access_denied', state: redirect.payloadState })),
        type: 'application/x-www-form-urlencoded',
        url: `/oid4vp/authorization-responses/${redirect.authorizationRequestId}`,
      },
      {
        encoding: 'deflate',
        body: deflateSync(form({ vp_token: 'a'.repeat(16 * 1024 * 1024), state: redirect.payloadState })),
        type: 'application/x-www-form-urlencoded',
        url: `/oid4vp/authorization-responses/${redirect.authorizationRequestId}`,
      },
    ];
    for (const { encoding, body, type, url } of cases) {
      expect(body.length).toBeLessThan(LIMIT);
      const response = await h.app.inject({
        method: 'POST',
        url,
        headers: { ...headers, 'content-type': type, 'content-encoding': encoding },
        payload: body,
      });
      expect([400, 415], `${encoding} ${url} → ${response.statusCode} ${response.body}`).toContain(response.statusCode);
    }
    expect(await snapshot()).toEqual(before);
    expect((await h.app.inject({ url: `/v1/orgs/${ORG}/oid4vp/verifier/zipped`, headers })).statusCode).toBe(404);
  });
});
