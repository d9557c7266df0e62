import { describe, expect } from 'vitest';
import { harnessTest } from '../support/fixtures.js';
import { newListId } from '../support/harness.js';

const test = harnessTest();

describe('status list readiness', () => {
  test('answers 200 while the database answers and 503 when it does not; reads then fail with 503', async ({
    harness: { call, testDb },
  }) => {
    expect((await call('GET', '/health/ready')).body).toEqual({ status: 'ok', checks: { database: 'ok' } });
    await testDb.database.close();
    const down = await call('GET', '/health/ready');
    expect(down.status).toBe(503);
    expect(down.body).toEqual({ status: 'unavailable', checks: { database: 'unavailable' } });
    expect((await call('GET', '/health')).status).toBe(200);
    const read = await call('GET', `/status-lists/${newListId()}`);
    expect(read.status).toBe(503);
    expect(read.body).toMatchObject({ code: 'DEPENDENCY_UNAVAILABLE' });
  });
});
