import { describe, expect, it } from 'vitest';
import { buildTestApp, createTestStatusListDb, newListId } from './support/test-app.js';

describe('status list readiness', () => {
  it('answers 200 while the database answers and 503 when it does not; reads then fail with 503', async () => {
    const testDb = await createTestStatusListDb();
    const app = await buildTestApp(testDb.database);
    expect((await app.inject({ url: '/health/ready' })).json()).toEqual({ status: 'ok', checks: { database: 'ok' } });
    await testDb.database.close();
    const down = await app.inject({ url: '/health/ready' });
    expect(down.statusCode).toBe(503);
    expect(down.json()).toEqual({ status: 'unavailable', checks: { database: 'unavailable' } });
    expect((await app.inject({ url: '/health' })).statusCode).toBe(200);
    const read = await app.inject({ url: `/status-lists/${newListId()}` });
    expect(read.statusCode).toBe(503);
    expect(read.json()).toMatchObject({ code: 'DEPENDENCY_UNAVAILABLE' });
    await app.close();
    await testDb.drop();
  });
});
