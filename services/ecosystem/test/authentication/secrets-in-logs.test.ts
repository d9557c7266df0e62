import { describe, expect, it } from 'vitest';
import { captureLogger } from '@tessera/service-kit/testing';
import { createHarness } from '../support/harness.js';

describe('secrets in logs', () => {
  it('never logs bearer tokens, valid or not, even at trace level', async () => {
    const logs = captureLogger('ecosystem', 'trace');
    const h = await createHarness({ logger: logs.logger });
    const token = await h.idp.mint({ sub: 'admin', platformAdmin: true, expiresIn: '5m' });
    const forged = `${token.slice(0, -10)}AAAAAAAAAA`;
    expect(
      (await h.app.inject({ url: '/v1/invitations', headers: { authorization: `Bearer ${token}` } })).statusCode,
    ).toBe(200);
    expect(
      (await h.app.inject({ url: '/v1/invitations', headers: { authorization: `Bearer ${forged}` } })).statusCode,
    ).toBe(401);
    expect(
      (
        await h.app.inject({
          method: 'POST',
          url: '/v1/invitations',
          headers: { authorization: `Bearer ${token}` },
          payload: { email: 'not-an-email' },
        })
      ).statusCode,
    ).toBe(400);
    await h.close();
    expect(logs.lines().length).toBeGreaterThan(5);
    const signature = token.split('.')[2]!;
    expect(logs.text()).not.toContain(signature);
    expect(logs.text()).not.toContain(forged.split('.')[2]!);
  });
});
