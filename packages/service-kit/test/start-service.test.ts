import { describe, expect, it } from 'vitest';
import { createApp, startService, type App } from '../src/index.js';
import { silentLogger } from '../src/testing/index.js';

const config = { HOST: '127.0.0.1', PORT: 0 };

function newApp(): Promise<App> {
  return createApp({
    name: 'kit-test',
    title: 'kit',
    description: 'kit',
    logger: silentLogger(),
    bodyLimit: 1024,
    readiness: {},
  });
}

describe('startService', () => {
  it('listens, and on close stops the server before closing resources in reverse order of opening', async () => {
    const events: string[] = [];
    const service = await startService({
      name: 'kit-test',
      config,
      logger: silentLogger(),
      build: async ({ open }) => {
        await open(
          'database',
          async () => 'db',
          async () => void events.push('database closed'),
        );
        await open(
          'bus',
          async () => 'bus',
          async () => void events.push('bus closed'),
        );
        const app = await newApp();
        app.addHook('onClose', async () => void events.push('server closed'));
        return app;
      },
    });
    expect((await fetch(`${service.url}/health`)).status).toBe(200);
    await service.close();
    expect(events).toEqual(['server closed', 'bus closed', 'database closed']);
  });

  it('closes what it opened when a later step of the start fails, and rethrows', async () => {
    const events: string[] = [];
    const failure = new Error('the bus is unreachable');
    await expect(
      startService({
        name: 'kit-test',
        config,
        logger: silentLogger(),
        build: async ({ open }) => {
          await open(
            'database',
            async () => 'db',
            async () => void events.push('database closed'),
          );
          await open(
            'bus',
            async () => Promise.reject(failure),
            async () => void events.push('bus closed'),
          );
          return newApp();
        },
      }),
    ).rejects.toBe(failure);
    expect(events).toEqual(['database closed']);
  });
});
