import { randomUUID } from 'node:crypto';
import { createTestDatabase, silentLogger, type TestDatabase } from '@tessera/service-kit/testing';
import type { App, Database } from '@tessera/service-kit';
import { buildApp } from '../../src/app.js';
import { loadStatusListConfig } from '../../src/config.js';
import { schema, type StatusListDbSchema } from '../../src/db/schema.js';
import { MIGRATIONS_FOLDER } from '../../src/db/migrations-folder.js';

export const TEST_API_KEY = 'test-api-key-0123456789';
export const BASE = 'https://status.example.com';

export function listUri(id: string): string {
  return `${BASE}/status-lists/${id}`;
}

export function newListId(): string {
  return randomUUID();
}

export async function createTestStatusListDb(): Promise<TestDatabase<StatusListDbSchema>> {
  return createTestDatabase({ schema, service: 'status-list', migrationsFolder: MIGRATIONS_FOLDER });
}

/** The real app on a real database, configured as in production but with test limits. */
export async function buildTestApp(database: Database<StatusListDbSchema>, env: Record<string, string> = {}): Promise<App> {
  const config = loadStatusListConfig({ NODE_ENV: 'test', API_KEY: TEST_API_KEY, PUBLIC_BASE_URL: BASE, ...env });
  return buildApp({ config, apiKey: TEST_API_KEY, database, logger: silentLogger() });
}
