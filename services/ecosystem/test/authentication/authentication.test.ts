import { generateKeyPair } from 'jose';
import { describe, expect } from 'vitest';
import { ErrorCode } from '@tessera/contracts';
import { harnessTest } from '../support/fixtures.js';
import { expectStatus } from '../support/responses.js';

const adminSpec = { sub: 'user-admin', email: 'admin@example.org', platformAdmin: true };
const test = harnessTest();

describe('authentication', () => {
  test('accepts a valid token', async ({ harness: h }) => {
    expectStatus(await h.call('GET', '/v1/invitations', { token: await h.idp.mint(adminSpec) }), 200);
  });

  test('answers 401 UNAUTHORIZED without a token, with a malformed header, and with a non-JWT', async ({
    harness: h,
  }) => {
    const variants: Array<Record<string, string>> = [
      {},
      { authorization: 'Basic dXNlcjpwYXNz' },
      { authorization: 'Bearer' },
      { authorization: 'Bearer not-a-jwt' },
    ];
    for (const headers of variants) {
      const response = await h.call('GET', '/v1/invitations', { headers });
      expectStatus(response, 401, ErrorCode.UNAUTHORIZED);
      expect(response.body).toMatchObject({ statusCode: 401, error: 'Unauthorized', message: expect.any(String) });
    }
  });

  test('answers 401 for an expired token', async ({ harness: h }) => {
    const token = await h.idp.mint({ ...adminSpec, expiresIn: Math.floor(Date.now() / 1000) - 120 });
    const response = await h.call('GET', '/v1/invitations', { token });
    expectStatus(response, 401, ErrorCode.UNAUTHORIZED);
    expect(response.body.message).toMatch(/expired/);
  });

  test('answers 401 for a token signed by an untrusted key', async ({ harness: h }) => {
    const { privateKey } = await generateKeyPair('ES256');
    expectStatus(
      await h.call('GET', '/v1/invitations', { token: await h.idp.mint({ ...adminSpec, key: privateKey }) }),
      401,
      ErrorCode.UNAUTHORIZED,
    );
  });

  test('answers 401 for a wrong audience or issuer', async ({ harness: h }) => {
    expectStatus(
      await h.call('GET', '/v1/invitations', { token: await h.idp.mint({ ...adminSpec, audience: 'another-api' }) }),
      401,
      ErrorCode.UNAUTHORIZED,
    );
    expectStatus(
      await h.call('GET', '/v1/invitations', {
        token: await h.idp.mint({ ...adminSpec, issuer: 'https://evil.example' }),
      }),
      401,
      ErrorCode.UNAUTHORIZED,
    );
  });

  test('authenticates before validating: a bad body without a token is 401, not 400', async ({ harness: h }) => {
    expectStatus(
      await h.call('POST', '/v1/invitations', { body: { email: 'not an e-mail' } }),
      401,
      ErrorCode.UNAUTHORIZED,
    );
    expectStatus(await h.call('GET', '/v1/intent/not-a-uuid'), 401, ErrorCode.UNAUTHORIZED);
  });

  test('reads roles in Keycloak layout: an org role does not make a platform admin', async ({ harness: h }) => {
    const token = await h.idp.mint({ sub: 'u', email: 'u@example.org', orgRoles: { platform_admin: ['owner'] } });
    expectStatus(await h.call('GET', '/v1/invitations', { token }), 403, ErrorCode.FORBIDDEN);
  });
});
