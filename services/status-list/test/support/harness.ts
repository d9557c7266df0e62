import { randomUUID } from 'node:crypto';
import { systemClock, type App, type Clock, type Database, type Logger } from '@tessera/service-kit';
import {
  appCaller,
  createTestDatabase,
  silentLogger,
  type AppCaller,
  type TestDatabase,
} from '@tessera/service-kit/testing';
import { buildApp } from '../../src/app.js';
import { loadStatusListConfig } from '../../src/config.js';
import { MIGRATIONS_FOLDER } from '../../src/db/migrations-folder.js';
import { schema, type StatusListDbSchema } from '../../src/db/schema.js';

export const TEST_API_KEY = 'test-api-key-0123456789';
export const BASE = 'https://status.example.com';
/** The headers of an authenticated write. */
export const API_KEY_HEADERS = { 'x-api-key': TEST_API_KEY };

/** The URI a list's token names as its `sub`. */
export function listUri(id: string): string {
  return `${BASE}/status-lists/${id}`;
}

export function newListId(): string {
  return randomUUID();
}

export async function createTestStatusListDb(): Promise<TestDatabase<StatusListDbSchema>> {
  return createTestDatabase({ schema, service: 'status-list', migrationsFolder: MIGRATIONS_FOLDER });
}

export interface TestAppOptions {
  /** Config variables over the test defaults (NODE_ENV=test, the API key, PUBLIC_BASE_URL). */
  env?: Record<string, string>;
  /** The write secret; TEST_API_KEY unless given. */
  apiKey?: string;
  /** Silent unless given. */
  logger?: Logger;
  /** The app's clock; the system clock unless given. */
  clock?: Clock;
}

/** The real app on `database`, configured as in production but with test limits. */
export async function buildTestApp(database: Database<StatusListDbSchema>, options: TestAppOptions = {}): Promise<App> {
  const apiKey = options.apiKey ?? TEST_API_KEY;
  const config = loadStatusListConfig({ NODE_ENV: 'test', API_KEY: apiKey, PUBLIC_BASE_URL: BASE, ...options.env });
  return buildApp({
    config,
    apiKey,
    database,
    logger: options.logger ?? silentLogger(),
    clock: options.clock ?? systemClock,
  });
}

/** One app on a fresh database, the way every status list test file calls it. */
export interface Harness {
  app: App;
  call: AppCaller;
  testDb: TestDatabase<StatusListDbSchema>;
  /** Closes the app, then drops the database. */
  close(): Promise<void>;
}

export async function createHarness(options: TestAppOptions = {}): Promise<Harness> {
  const testDb = await createTestStatusListDb();
  let app: App;
  try {
    app = await buildTestApp(testDb.database, options);
  } catch (error) {
    await testDb.drop();
    throw error;
  }
  return {
    app,
    call: appCaller(app),
    testDb,
    close: async () => {
      await app.close();
      await testDb.drop();
    },
  };
}
