import { generateKeyPair } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { InProcessBus } from '@tessera/service-kit';
import { ErrorCode, Subject } from '@tessera/contracts';
import { startHarness, type Harness } from './support/harness.js';
import { expectStatus } from './support/world.js';

const adminSpec = { sub: 'user-admin', email: 'admin@example.org', platformAdmin: true };

describe('authentication', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness();
  });
  afterAll(() => h.close());

  it('accepts a valid token', async () => {
    expectStatus(await h.call('GET', '/v1/invitations', { token: await h.sign(adminSpec) }), 200);
  });

  it('answers 401 UNAUTHORIZED without a token, with a malformed header, and with a non-JWT', async () => {
    const variants: Array<Record<string, string>> = [{}, { authorization: 'Basic dXNlcjpwYXNz' }, { authorization: 'Bearer' }, { authorization: 'Bearer not-a-jwt' }];
    for (const headers of variants) {
      const response = await h.call('GET', '/v1/invitations', { headers });
      expectStatus(response, 401, ErrorCode.UNAUTHORIZED);
      expect(response.body).toMatchObject({ statusCode: 401, error: 'Unauthorized', message: expect.any(String) });
    }
  });

  it('answers 401 for an expired token', async () => {
    const token = await h.sign({ ...adminSpec, expiresIn: Math.floor(Date.now() / 1000) - 120 });
    const response = await h.call('GET', '/v1/invitations', { token });
    expectStatus(response, 401, ErrorCode.UNAUTHORIZED);
    expect(response.body.message).toMatch(/expired/);
  });

  it('answers 401 for a token signed by an untrusted key', async () => {
    const { privateKey } = await generateKeyPair('ES256');
    expectStatus(await h.call('GET', '/v1/invitations', { token: await h.sign({ ...adminSpec, key: privateKey }) }), 401, ErrorCode.UNAUTHORIZED);
  });

  it('answers 401 for a wrong audience or issuer', async () => {
    expectStatus(await h.call('GET', '/v1/invitations', { token: await h.sign({ ...adminSpec, audience: 'another-api' }) }), 401, ErrorCode.UNAUTHORIZED);
    expectStatus(await h.call('GET', '/v1/invitations', { token: await h.sign({ ...adminSpec, issuer: 'https://evil.example' }) }), 401, ErrorCode.UNAUTHORIZED);
  });

  it('authenticates before validating: a bad body without a token is 401, not 400', async () => {
    expectStatus(await h.call('POST', '/v1/invitations', { body: { email: 'not an e-mail' } }), 401, ErrorCode.UNAUTHORIZED);
    expectStatus(await h.call('GET', '/v1/intent/not-a-uuid'), 401, ErrorCode.UNAUTHORIZED);
  });

  it('reads roles in Keycloak layout: an org role does not make a platform admin', async () => {
    const token = await h.sign({ sub: 'u', email: 'u@example.org', orgs: { platform_admin: ['owner'] } });
    expectStatus(await h.call('GET', '/v1/invitations', { token }), 403, ErrorCode.FORBIDDEN);
  });
});

describe('feature switch ECOSYSTEM_ENABLED=false', () => {
  let h: Harness;
  let token: string;
  beforeAll(async () => {
    h = await startHarness({ enabled: false });
    token = await h.sign({ ...adminSpec, orgs: { 'org-a': ['owner'] } });
  });
  afterAll(() => h.close());

  it('answers the status route with enabled: false', async () => {
    const response = await h.call('GET', '/v1/ecosystem/status', { token });
    expect(response.body).toEqual({ statusCode: 200, message: expect.any(String), data: { enabled: false } });
  });

  it('answers 403 ECOSYSTEM_DISABLED on ecosystem, intent and invitation routes, after authentication', async () => {
    const uuid = '00000000-0000-4000-8000-000000000000';
    const requests: Array<['GET' | 'POST' | 'PUT' | 'DELETE', string]> = [
      ['GET', '/v1/ecosystem'],
      ['GET', '/v1/ecosystem/dashboard/summary'],
      ['POST', '/v1/invitations'],
      ['GET', '/v1/invitations'],
      ['POST', '/v1/ecosystem/org-a/create'],
      ['GET', `/v1/ecosystem/members?ecosystemId=${uuid}`],
      ['GET', `/v1/intent/${uuid}`],
      ['PUT', `/v1/intent/${uuid}/notice`],
      ['DELETE', `/v1/intent/${uuid}/template/${uuid}`],
    ];
    for (const [method, url] of requests) {
      expectStatus(await h.call(method, url, { token, body: method === 'GET' || method === 'DELETE' ? undefined : {} }), 403, ErrorCode.ECOSYSTEM_DISABLED);
      expectStatus(await h.call(method, url), 401, ErrorCode.UNAUTHORIZED);
    }
  });

  it('keeps the organisation directory working', async () => {
    expectStatus(await h.call('PUT', '/v1/organisations/org-a', { token, body: { name: 'A' } }), 201);
  });

  it('refuses intent resolution with ECOSYSTEM_DISABLED', async () => {
    const bus = new InProcessBus(h.hub);
    const reply = await bus.request(Subject.INTENT_RESOLVE, { ecosystemId: '00000000-0000-4000-8000-000000000000', intent: 'x', orgId: 'org-a', role: 'verifier' });
    expect(reply).toMatchObject({ ok: false, error: { statusCode: 403, code: ErrorCode.ECOSYSTEM_DISABLED } });
    await bus.close();
  });
});
