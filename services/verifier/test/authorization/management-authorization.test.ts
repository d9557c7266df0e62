import { generateKeyPair } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHarness, type Harness } from '../support/harness.js';
import { ORG, OTHER_ORG, sdJwtQuery } from '../support/dcql-queries.js';

// Every management route: 401 without a valid token, 403 without a role in the
// organisation of the path, before any validation (a bad body does not change that).
const ROUTES: Array<[string, string]> = [
  ['POST', 'verifier'],
  ['GET', 'verifier'],
  ['GET', 'verifier/v1'],
  ['PUT', 'verifier/v1'],
  ['DELETE', 'verifier/v1'],
  ['POST', 'verification-template'],
  ['GET', 'verification-template'],
  ['GET', 'verification-template/00000000-0000-4000-8000-000000000000'],
  ['PUT', 'verification-template/00000000-0000-4000-8000-000000000000'],
  ['DELETE', 'verification-template/00000000-0000-4000-8000-000000000000'],
  ['POST', 'presentation?verifierId=v1'],
  ['POST', 'intent-based-verification-presentation?verifierId=v1&ecosystemId=00000000-0000-4000-8000-000000000000'],
  ['GET', 'verifier-presentation'],
  ['PUT', 'certificates/P256'],
  ['GET', 'certificates/ED25519'],
  ['POST', 'trust-anchors'],
  ['GET', 'trust-anchors'],
  ['DELETE', 'trust-anchors/00000000-0000-4000-8000-000000000000'],
  ['GET', 'verifier-presentation-response?verificationPresentationId=00000000-0000-4000-8000-000000000000'],
  ['POST', 'verify-authorization-response'],
];

let h: Harness;
beforeAll(async () => {
  h = await createHarness();
});
afterAll(() => h.close());

async function call(method: string, path: string, headers: Record<string, string>) {
  return h.app.inject({ method: method as 'GET', url: `/v1/orgs/${ORG}/oid4vp/${path}`, headers, ...(method === 'POST' || method === 'PUT' ? { payload: { not: 'valid' } } : {}) });
}

describe('management authorization', () => {
  for (const [method, path] of ROUTES) {
    it(`${method} ${path}`, async () => {
      const none = await call(method, path, {});
      expect(none.statusCode).toBe(401);
      expect(none.json()).toMatchObject({ statusCode: 401, error: 'Unauthorized', code: 'UNAUTHORIZED' });
      expect((await call(method, path, { authorization: 'Basic abc' })).statusCode).toBe(401);
      const foreign = await call(method, path, await h.auth(OTHER_ORG, ['owner']));
      expect(foreign.statusCode).toBe(403);
      expect(foreign.json().code).toBe('FORBIDDEN');
      expect((await call(method, path, await h.auth(ORG, ['member']))).statusCode).toBe(403);
    });
  }

  it('refuses expired tokens and tokens signed by an untrusted key', async () => {
    const expired = await h.mint({ orgRoles: { [ORG]: ['owner'] }, expiresIn: '-1h' });
    const response = await h.app.inject({ method: 'GET', url: `/v1/orgs/${ORG}/oid4vp/verifier`, headers: { authorization: `Bearer ${expired}` } });
    expect(response.statusCode).toBe(401);
    expect(response.json().message).toMatch(/expired/);
    const { privateKey } = await generateKeyPair('ES256');
    const forged = await h.mint({ orgRoles: { [ORG]: ['owner'] }, key: privateKey });
    expect((await h.app.inject({ method: 'GET', url: `/v1/orgs/${ORG}/oid4vp/verifier`, headers: { authorization: `Bearer ${forged}` } })).statusCode).toBe(401);
  });

  it('lets owner, admin and verifier in', async () => {
    for (const role of ['owner', 'admin', 'verifier']) {
      const response = await h.app.inject({ method: 'GET', url: `/v1/orgs/${ORG}/oid4vp/verifier`, headers: await h.auth(ORG, [role]) });
      expect(response.statusCode).toBe(200);
    }
  });

  it('keeps the public endpoints public', async () => {
    expect((await h.app.inject({ method: 'GET', url: '/oid4vp/platform-ca.pem' })).statusCode).toBe(200);
    expect((await h.app.inject({ method: 'GET', url: '/health/ready' })).json()).toEqual({ status: 'ok', checks: { database: 'ok', nats: 'ok' } });
    const docs = await h.app.inject({ method: 'GET', url: '/docs/json' });
    expect(docs.statusCode).toBe(200);
    expect(Object.keys(docs.json().paths)).toContain('/oid4vp/authorization-requests/{authorizationRequestId}');
    const unknown = await h.app.inject({ method: 'GET', url: '/oid4vp/authorization-requests/unknown' });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json()).toEqual({ error: 'invalid_request_uri', error_description: expect.any(String) });
  });

  it('does not leak a template query of another organisation through a role check', async () => {
    const created = await h.app.inject({
      method: 'POST',
      url: `/v1/orgs/${ORG}/oid4vp/verification-template`,
      headers: await h.auth(ORG),
      payload: { name: 'PID', templateJson: { dcql: { query: sdJwtQuery() } }, signerOption: 'DID' },
    });
    const id = created.json().data.id;
    const other = await h.app.inject({ method: 'GET', url: `/v1/orgs/${OTHER_ORG}/oid4vp/verification-template/${id}`, headers: await h.auth(OTHER_ORG) });
    expect(other.statusCode).toBe(404);
  });
});
