import { describe, expect, it } from 'vitest';
import { captureLogger } from '@tessera/service-kit/testing';
import { createHarness, listUri, newListId } from '../support/harness.js';
import { signStatusListToken } from '../support/status-list-token.js';

describe('secrets in logs', () => {
  it('never logs the API key, right or wrong, even at trace level', async () => {
    const apiKey = 'the-real-api-key-7f3e9a1c';
    const wrongKey = 'a-wrong-api-key-4b2d8e6f';
    const logs = captureLogger('status-list', 'trace');
    // Its own harness: the logs are read once the app has closed.
    const { call, close } = await createHarness({ apiKey, logger: logs.logger, env: { LOG_LEVEL: 'trace' } });
    const id = newListId();
    const jwt = await signStatusListToken({ sub: listUri(id) });
    expect((await call('POST', '/status-lists', { headers: { 'x-api-key': apiKey }, body: { id, jwt } })).status).toBe(
      201,
    );
    expect(
      (await call('PATCH', `/status-lists/${id}`, { headers: { 'x-api-key': wrongKey }, body: { jwt } })).status,
    ).toBe(401);
    expect(
      (await call('PATCH', `/status-lists/${id}`, { headers: { 'x-api-key': apiKey }, body: { jwt: 'garbage' } }))
        .status,
    ).toBe(400);
    await close();
    expect(logs.lines().length).toBeGreaterThan(5);
    expect(logs.text()).not.toContain(apiKey);
    expect(logs.text()).not.toContain(wrongKey);
  });
});
