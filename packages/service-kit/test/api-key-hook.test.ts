import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiKeyHook, createApp, type App } from '../src/index.js';
import { silentLogger } from '../src/testing/index.js';

const KEY = 'the-right-key-0123456789';

describe('createApiKeyHook', () => {
  let app: App;
  let reached = 0;

  beforeAll(async () => {
    app = await createApp({
      name: 'kit-test',
      title: 'Kit test',
      description: 'test app',
      logger: silentLogger(),
      readiness: {},
      bodyLimit: 1024,
    });
    app.addHook('onRequest', createApiKeyHook(KEY));
    app.post('/guarded', async () => {
      reached += 1;
      return { ok: true };
    });
    await app.ready();
  });
  afterAll(() => app.close());

  const post = (headers: Record<string, string>) =>
    app.inject({
      method: 'POST',
      url: '/guarded',
      headers: { 'content-type': 'application/json', ...headers },
      payload: '{}',
    });

  it('lets the right key through', async () => {
    expect((await post({ 'x-api-key': KEY })).statusCode).toBe(200);
  });

  it.for([
    ['no key', {}, 'Send the API key in the x-api-key header.'],
    ['an empty key', { 'x-api-key': '' }, 'Send the API key in the x-api-key header.'],
    ['a wrong key', { 'x-api-key': 'the-wrong-key-0123456789' }, 'The API key is not valid.'],
    ['a prefix of the key', { 'x-api-key': KEY.slice(0, -1) }, 'The API key is not valid.'],
  ] as const)('answers %s with 401 UNAUTHORIZED before the handler runs', async ([, headers, message]) => {
    const before = reached;
    const response = await post(headers);
    expect(response.statusCode).toBe(401);
    expect(response.json()).toMatchObject({ statusCode: 401, code: 'UNAUTHORIZED', message });
    expect(reached).toBe(before);
  });
});
