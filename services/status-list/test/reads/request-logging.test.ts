import { describe, expect, it } from 'vitest';
import { captureLogger } from '@tessera/service-kit/testing';
import { createHarness, newListId } from '../support/harness.js';

// The read route makes request loggers lazily (the kit's createLazyRequestLogger, tested
// there): what a read logs, and how, is what any route logs.
describe('request logging on the read route', () => {
  it('still binds the request id into every line a read logs', async () => {
    const logs = captureLogger('status-list', 'info');
    // Its own harness: the logs are read once the app has closed.
    const { call, close } = await createHarness({ logger: logs.logger, env: { LOG_LEVEL: 'info' } });
    const id = newListId();
    expect((await call('GET', `/status-lists/${id}`, { headers: { 'x-request-id': 'read-log-0001' } })).status).toBe(
      404,
    );
    await close();
    const lines = logs.lines().map((line) => JSON.parse(line) as { reqId?: string; msg?: string; code?: string });
    const ofRequest = lines.filter((line) => line.reqId === 'read-log-0001');
    expect(ofRequest.map((line) => line.msg)).toEqual(
      expect.arrayContaining(['incoming request', `No status list ${id}.`, 'request completed']),
    );
    expect(ofRequest.find((line) => line.msg === `No status list ${id}.`)?.code).toBe('NOT_FOUND');
  });
});
