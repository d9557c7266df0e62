import { generateKeyPair } from 'jose';
import { describe, expect } from 'vitest';
import type { HttpMethod } from '@tessera/service-kit/testing';
import { sdJwtQuery } from '../support/dcql-queries.js';
import { verifierTest as test } from '../support/fixtures.js';
import type { Harness } from '../support/harness.js';
import { ORG, OTHER_ORG } from '../support/management.js';

// Every management route: 401 without a valid token, 403 without a role in the
// organisation of the path, before any validation (a bad body does not change that).
const ROUTES: Array<[HttpMethod, string]> = [
  ['POST', 'verifier'],
  ['GET', 'verifier'],
  ['GET', 'verifier/v1'],
  ['PUT', 'verifier/v1'],
  ['PATCH', 'verifier/v1'],
  ['DELETE', 'verifier/v1'],
  ['POST', 'verification-template'],
  ['GET', 'verification-template'],
  ['GET', 'verification-template/00000000-0000-4000-8000-000000000000'],
  ['PUT', 'verification-template/00000000-0000-4000-8000-000000000000'],
  ['DELETE', 'verification-template/00000000-0000-4000-8000-000000000000'],
  ['POST', 'presentation?verifierId=v1'],
  ['POST', 'intent-based-verification-presentation?verifierId=v1&ecosystemId=00000000-0000-4000-8000-000000000000'],
  ['GET', 'verifier-presentation'],
  ['GET', 'verifier-presentation?createdAfter=not-a-time'],
  ['GET', 'verifier-presentation-events?id=00000000-0000-4000-8000-000000000000'],
  ['PUT', 'certificates/P256'],
  ['GET', 'certificates/ED25519'],
  ['PUT', 'certificates/READER'],
  ['GET', 'certificates/READER'],
  ['GET', 'certificates'],
  ['POST', 'certificates/P256/csr'],
  ['PUT', 'verifier/v1/registration-certificate'],
  ['GET', 'verifier/v1/registration-certificate'],
  ['DELETE', 'verifier/v1/registration-certificate'],
  ['POST', 'trust-anchors'],
  ['GET', 'trust-anchors'],
  ['DELETE', 'trust-anchors/00000000-0000-4000-8000-000000000000'],
  ['GET', 'verifier-presentation-response?verificationPresentationId=00000000-0000-4000-8000-000000000000'],
  ['POST', 'verify-authorization-response'],
  ['GET', 'verifier-presentation-reads?id=00000000-0000-4000-8000-000000000000'],
  ['PUT', 'verifier/v1/webhook'],
  ['GET', 'verifier/v1/webhook'],
  ['DELETE', 'verifier/v1/webhook'],
  ['POST', 'verifier/v1/webhook/rotate-secret'],
  ['GET', 'verifier/v1/webhook/deliveries'],
  ['POST', 'verifier/v1/webhook/deliveries/00000000-0000-4000-8000-000000000000/redeliver'],
];

/** A route of ORG with `headers` only, and an invalid body where it takes one. */
const callRoute = (h: Harness, method: HttpMethod, path: string, headers: Record<string, string>) =>
  h.call(method, `/v1/orgs/${ORG}/oid4vp/${path}`, {
    headers,
    ...(method === 'POST' || method === 'PUT' || method === 'PATCH' ? { body: { not: 'valid' } } : {}),
  });

describe('management authorization', () => {
  for (const [method, path] of ROUTES) {
    test(`${method} ${path}: 401 without a valid token, 403 without a role in the organisation`, async ({
      harness: h,
    }) => {
      const none = await callRoute(h, method, path, {});
      expect(none.status).toBe(401);
      expect(none.body).toMatchObject({ statusCode: 401, error: 'Unauthorized', code: 'UNAUTHORIZED' });
      expect((await callRoute(h, method, path, { authorization: 'Basic abc' })).status).toBe(401);
      const foreign = await callRoute(h, method, path, await h.auth(OTHER_ORG, ['owner']));
      expect(foreign.status).toBe(403);
      expect(foreign.body.code).toBe('FORBIDDEN');
      expect((await callRoute(h, method, path, await h.auth(ORG, ['member']))).status).toBe(403);
    });
  }

  test('refuses expired tokens and tokens signed by an untrusted key', async ({ harness: h }) => {
    const expired = await h.idp.mint({ orgRoles: { [ORG]: ['owner'] }, expiresIn: '-1h' });
    const response = await h.call('GET', `/v1/orgs/${ORG}/oid4vp/verifier`, { token: expired });
    expect(response.status).toBe(401);
    expect(response.body.message).toMatch(/expired/);
    const { privateKey } = await generateKeyPair('ES256');
    const forged = await h.idp.mint({ orgRoles: { [ORG]: ['owner'] }, key: privateKey });
    expect((await h.call('GET', `/v1/orgs/${ORG}/oid4vp/verifier`, { token: forged })).status).toBe(401);
  });

  test('lets owner, admin and verifier in', async ({ api }) => {
    for (const role of ['owner', 'admin', 'verifier']) {
      const response = await api('GET', `/v1/orgs/${ORG}/oid4vp/verifier`, undefined, { roles: [role] });
      expect(response.status).toBe(200);
    }
  });

  test('keeps the public endpoints public', async ({ harness: h }) => {
    expect((await h.call('GET', '/oid4vp/platform-ca.pem')).status).toBe(200);
    expect((await h.call('GET', '/health/ready')).body).toEqual({
      status: 'ok',
      checks: { database: 'ok', nats: 'ok' },
    });
    const docs = await h.call('GET', '/docs/json');
    expect(docs.status).toBe(200);
    expect(Object.keys(docs.body.paths)).toContain('/oid4vp/authorization-requests/{authorizationRequestId}');
    const unknown = await h.call('GET', '/oid4vp/authorization-requests/unknown');
    expect(unknown.status).toBe(404);
    expect(unknown.body).toEqual({ error: 'invalid_request_uri', error_description: expect.any(String) });
  });

  test('does not leak a template query of another organisation through a role check', async ({ api }) => {
    const created = await api('POST', `/v1/orgs/${ORG}/oid4vp/verification-template`, {
      name: 'PID',
      templateJson: { dcql: { query: sdJwtQuery() } },
      signerOption: 'DID',
    });
    const id = created.body.data.id;
    const other = await api('GET', `/v1/orgs/${OTHER_ORG}/oid4vp/verification-template/${id}`, undefined, {
      org: OTHER_ORG,
    });
    expect(other.status).toBe(404);
  });
});
