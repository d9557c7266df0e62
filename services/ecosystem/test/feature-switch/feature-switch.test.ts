import { describe, expect } from 'vitest';
import { ErrorCode, Subject } from '@tessera/contracts';
import { InProcessBus } from '@tessera/service-kit';
import { harnessTest } from '../support/fixtures.js';
import { expectStatus } from '../support/responses.js';

const test = harnessTest({ enabled: false }).extend('token', { scope: 'file' }, async ({ harness }) =>
  harness.idp.mint({
    sub: 'user-admin',
    email: 'admin@example.org',
    platformAdmin: true,
    orgRoles: { 'org-a': ['owner'] },
  }),
);

describe('feature switch ECOSYSTEM_ENABLED=false', () => {
  test('answers the status route with enabled: false', async ({ harness: h, token }) => {
    const response = await h.call('GET', '/v1/ecosystem/status', { token });
    expect(response.body).toEqual({ statusCode: 200, message: expect.any(String), data: { enabled: false } });
  });

  test('answers 403 ECOSYSTEM_DISABLED on ecosystem, intent and invitation routes, after authentication', async ({
    harness: h,
    token,
  }) => {
    const uuid = '00000000-0000-4000-8000-000000000000';
    const requests: Array<['GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE', string]> = [
      ['GET', '/v1/ecosystem'],
      ['GET', '/v1/ecosystem/dashboard/summary'],
      ['POST', '/v1/invitations'],
      ['GET', '/v1/invitations'],
      ['POST', '/v1/ecosystem/org-a/create'],
      ['GET', `/v1/ecosystem/members?ecosystemId=${uuid}`],
      ['GET', `/v1/intent/${uuid}`],
      ['PUT', `/v1/intent/${uuid}/notice`],
      ['DELETE', `/v1/intent/${uuid}/template/${uuid}`],
      ['POST', `/v1/ecosystem/${uuid}/trusted-entities`],
      ['GET', `/v1/ecosystem/${uuid}/trusted-entities`],
      ['GET', `/v1/ecosystem/${uuid}/trusted-entities/${uuid}`],
      ['PATCH', `/v1/ecosystem/${uuid}/trusted-entities/${uuid}`],
      ['POST', `/v1/ecosystem/${uuid}/trusted-entities/${uuid}/certificates`],
      ['DELETE', `/v1/ecosystem/${uuid}/trusted-entities/${uuid}/certificates/${uuid}`],
      ['POST', `/v1/ecosystem/${uuid}/trusted-entities/${uuid}/status`],
      ['GET', `/v1/ecosystem/${uuid}/trusted-entities/${uuid}/history`],
      ['GET', `/v1/ecosystem/${uuid}/trust-policy`],
      ['PUT', `/v1/ecosystem/${uuid}/trust-policy`],
      ['PUT', `/v1/ecosystem/${uuid}/trust-list/visibility`],
    ];
    for (const [method, url] of requests) {
      expectStatus(
        await h.call(method, url, { token, body: method === 'GET' || method === 'DELETE' ? undefined : {} }),
        403,
        ErrorCode.ECOSYSTEM_DISABLED,
      );
      expectStatus(await h.call(method, url), 401, ErrorCode.UNAUTHORIZED);
    }
  });

  test('keeps the organisation directory working', async ({ harness: h, token }) => {
    expectStatus(await h.call('PUT', '/v1/organisations/org-a', { token, body: { name: 'A' } }), 201);
  });

  test('refuses intent resolution with ECOSYSTEM_DISABLED', async ({ harness: h }) => {
    const client = new InProcessBus(h.hub);
    const reply = await client.request(Subject.INTENT_RESOLVE, {
      ecosystemId: '00000000-0000-4000-8000-000000000000',
      intent: 'x',
      orgId: 'org-a',
      role: 'verifier',
    });
    expect(reply).toMatchObject({ ok: false, error: { statusCode: 403, code: ErrorCode.ECOSYSTEM_DISABLED } });
    await client.close();
  });
});
