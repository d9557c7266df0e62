import { describe, expect, it } from 'vitest';
import { captureLogger, createTestDatabase } from '@tessera/service-kit/testing';
import { buildApp } from '../src/app.js';
import { loadStatusListConfig } from '../src/config.js';
import { schema } from '../src/db/schema.js';
import { MIGRATIONS_FOLDER } from '../src/db/migrations-folder.js';
import { listUri, newListId } from './support/test-app.js';
import { signStatusListToken } from './support/status-list-token.js';

describe('secrets in logs', () => {
  it('never logs the API key, right or wrong, even at trace level', async () => {
    const apiKey = 'the-real-api-key-7f3e9a1c';
    const wrongKey = 'a-wrong-api-key-4b2d8e6f';
    const logs = captureLogger('status-list', 'trace');
    const testDb = await createTestDatabase({ schema, service: 'status-list', migrationsFolder: MIGRATIONS_FOLDER });
    const config = loadStatusListConfig({ NODE_ENV: 'test', API_KEY: apiKey, LOG_LEVEL: 'trace' });
    const app = await buildApp({ config, apiKey, database: testDb.database, logger: logs.logger });
    const id = newListId();
    const jwt = await signStatusListToken({ sub: listUri(id) });
    expect((await app.inject({ method: 'POST', url: '/status-lists', headers: { 'x-api-key': apiKey }, payload: { id, jwt } })).statusCode).toBe(201);
    expect((await app.inject({ method: 'PATCH', url: `/status-lists/${id}`, headers: { 'x-api-key': wrongKey }, payload: { jwt } })).statusCode).toBe(401);
    expect((await app.inject({ method: 'PATCH', url: `/status-lists/${id}`, headers: { 'x-api-key': apiKey }, payload: { jwt: 'garbage' } })).statusCode).toBe(400);
    await app.close();
    await testDb.drop();
    expect(logs.lines().length).toBeGreaterThan(5);
    expect(logs.text()).not.toContain(apiKey);
    expect(logs.text()).not.toContain(wrongKey);
  });
});
