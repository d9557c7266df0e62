import { randomUUID } from 'node:crypto';
import { describe, expect } from 'vitest';
import { harnessTest } from '../support/fixtures.js';
import type { Harness } from '../support/harness.js';
import { expectStatus } from '../support/responses.js';
import { verifyTrustList } from '../support/signed-trust-list.js';
import type { World } from '../support/world.js';

// Who reads the signed list, and the HTTP around it: token or public, ETag and 304 for
// public lists, no caching of private ones, CORS open, the feature switch.

const test = harnessTest();
const disabled = harnessTest({ enabled: false });
const listPath = (world: World) => `/v1/ecosystem/${world.ecosystemId}/trust-list`;
const setPublic = async (h: Harness, world: World, value: boolean) =>
  expectStatus(
    await h.call('PUT', `/v1/ecosystem/${world.ecosystemId}/trust-list/visibility`, {
      token: world.tokens.lead,
      body: { public: value },
    }),
    200,
  );

describe('GET /v1/ecosystem/{ecosystemId}/trust-list: a private list', () => {
  test('the lead and active members read it (verified against the published CA); private, no-store, no ETag', async ({
    harness: h,
    world,
  }) => {
    const ca = await h.call('GET', '/v1/trust-list-ca.pem');
    for (const party of ['lead', 'member'] as const) {
      const response = await h.call('GET', listPath(world), { token: world.tokens[party] });
      expect(response.status).toBe(200);
      expect(response.headers['content-type']).toBe('application/trustlist+jwt');
      expect(response.headers['cache-control']).toBe('private, no-store');
      expect(response.headers).not.toHaveProperty('etag');
      expect(response.headers['access-control-allow-origin']).toBe('*');
      const { payload } = await verifyTrustList(response.raw, ca.raw);
      expect(payload.LoTE.ListAndSchemeInformation).toMatchObject({
        LoTESequenceNumber: 0,
        SchemeName: [{ lang: 'en', value: 'Health Data Space' }],
      });
    }
  });

  test('invited (pending or rejected) 403; outsiders, a user without organisation and a platform admin 404, as for other ecosystem resources', async ({
    harness: h,
    world,
  }) => {
    for (const party of ['invited', 'rejected'] as const)
      expectStatus(await h.call('GET', listPath(world), { token: world.tokens[party] }), 403, 'FORBIDDEN');
    for (const party of ['outsider', 'nobody', 'admin'] as const) {
      expectStatus(await h.call('GET', listPath(world), { token: world.tokens[party] }), 404, 'ECOSYSTEM_NOT_FOUND');
    }
  });

  test('without a token 401, for a known and an unknown ecosystem alike (anonymous callers learn nothing); a bad token 401', async ({
    harness: h,
    world,
  }) => {
    expectStatus(await h.call('GET', listPath(world)), 401);
    expectStatus(await h.call('GET', `/v1/ecosystem/${randomUUID()}/trust-list`), 401);
    expectStatus(await h.call('GET', listPath(world), { token: 'not-a-token' }), 401);
    expectStatus(await h.call('GET', listPath(world), { headers: { authorization: 'Basic abc' } }), 401);
  });

  test('an unknown or malformed ecosystem id with a token 404', async ({ harness: h, world }) => {
    expectStatus(
      await h.call('GET', `/v1/ecosystem/${randomUUID()}/trust-list`, { token: world.tokens.lead }),
      404,
      'ECOSYSTEM_NOT_FOUND',
    );
    expectStatus(
      await h.call('GET', '/v1/ecosystem/not-a-uuid/trust-list', { token: world.tokens.lead }),
      404,
      'ECOSYSTEM_NOT_FOUND',
    );
  });

  test('If-None-Match is ignored for a private list (it has no validator)', async ({ harness: h, world }) => {
    const response = await h.call('GET', listPath(world), {
      token: world.tokens.member,
      headers: { 'if-none-match': '"0"' },
    });
    expect(response.status).toBe(200);
  });
});

describe('GET /v1/ecosystem/{ecosystemId}/trust-list: a public list', () => {
  test('is served without a token, with ETag "<sequence>", Cache-Control public and CORS open', async ({
    harness: h,
    world,
  }) => {
    await setPublic(h, world, true);
    const ca = await h.call('GET', '/v1/trust-list-ca.pem');
    const response = await h.call('GET', listPath(world));
    expect(response.status).toBe(200);
    expect(response.headers).toMatchObject({
      'content-type': 'application/trustlist+jwt',
      etag: '"0"',
      'cache-control': 'public, max-age=60',
      'access-control-allow-origin': '*',
      'access-control-expose-headers': 'ETag',
      'cross-origin-resource-policy': 'cross-origin',
    });
    await verifyTrustList(response.raw, ca.raw);
    // With a token (anyone's) it is the same public answer.
    const withToken = await h.call('GET', listPath(world), { token: world.tokens.outsider });
    expect(withToken.status).toBe(200);
    expect(withToken.headers.etag).toBe('"0"');
  });

  test('304 with no body on a matching If-None-Match (also weak, or in a list), 200 on another', async ({
    harness: h,
    world,
  }) => {
    await setPublic(h, world, true);
    for (const validator of ['"0"', 'W/"0"', '"9", "0"', '*']) {
      const response = await h.call('GET', listPath(world), { headers: { 'if-none-match': validator } });
      expect(response.status, validator).toBe(304);
      expect(response.raw).toBe('');
      expect(response.headers).toMatchObject({
        etag: '"0"',
        'cache-control': 'public, max-age=60',
        'access-control-allow-origin': '*',
      });
    }
    expect((await h.call('GET', listPath(world), { headers: { 'if-none-match': '"1"' } })).status).toBe(200);
  });

  test('the CORS preflight is answered without a token', async ({ harness: h, world }) => {
    const response = await h.call('OPTIONS', listPath(world), {
      headers: {
        origin: 'https://verifier.example',
        'access-control-request-method': 'GET',
        'access-control-request-headers': 'if-none-match',
      },
    });
    expect(response.status).toBe(204);
    expect(response.headers).toMatchObject({
      'access-control-allow-origin': '*',
      'access-control-allow-methods': 'GET, OPTIONS',
      'access-control-allow-headers': 'Authorization, If-None-Match',
    });
  });

  test('made private again, it needs a token again', async ({ harness: h, world }) => {
    await setPublic(h, world, false);
    expectStatus(await h.call('GET', listPath(world)), 401);
    expect((await h.call('GET', listPath(world), { token: world.tokens.member })).headers['cache-control']).toBe(
      'private, no-store',
    );
  });
});

describe('GET /v1/trust-list-ca.pem', () => {
  test('is public PEM, cacheable, CORS open, and the certificate the harness configured', async ({ harness: h }) => {
    const { testTrustListCa } = await import('../support/trust-list-ca.js');
    const response = await h.call('GET', '/v1/trust-list-ca.pem');
    expect(response.status).toBe(200);
    expect(response.headers).toMatchObject({
      'content-type': 'application/x-pem-file',
      'cache-control': 'public, max-age=3600',
      'access-control-allow-origin': '*',
    });
    expect(response.raw.trim()).toBe((await testTrustListCa()).certificatePem.trim());
  });
});

describe('with ECOSYSTEM_ENABLED=false', () => {
  disabled(
    'the list answers 403 ECOSYSTEM_DISABLED, with or without a token; the CA is still served',
    async ({ harness: h }) => {
      const id = randomUUID();
      expectStatus(await h.call('GET', `/v1/ecosystem/${id}/trust-list`), 403, 'ECOSYSTEM_DISABLED');
      const token = await h.idp.mint({ sub: 'someone', orgRoles: { 'org-x': ['owner'] } });
      expectStatus(await h.call('GET', `/v1/ecosystem/${id}/trust-list`, { token }), 403, 'ECOSYSTEM_DISABLED');
      expect((await h.call('GET', '/v1/trust-list-ca.pem')).status).toBe(200);
    },
  );
});
