import { test } from 'vitest';
import type { App } from '@tessera/service-kit';
import { appCaller, type AppCaller } from '@tessera/service-kit/testing';
import { buildTestApp, createHarness, createTestStatusListDb, type TestAppOptions } from './harness.js';

/** `test` with `harness`: one app on a fresh database per test file, closed after the file. */
export function harnessTest(options: TestAppOptions = {}) {
  return test.extend('harness', { scope: 'file' }, async ({}, { onCleanup }) => {
    const harness = await createHarness(options);
    onCleanup(() => harness.close());
    return harness;
  });
}

/** A second app instance on the harness's database: another replica of the service. */
export interface Replica {
  app: App;
  call: AppCaller;
}

/** `harnessTest` plus `replica`: two replicas on one database (needs a PostgreSQL server). */
export function replicasTest(options: TestAppOptions = {}) {
  return harnessTest(options).extend(
    'replica',
    { scope: 'file' },
    async ({ harness }, { onCleanup }): Promise<Replica> => {
      const app = await buildTestApp(await harness.testDb.openAnother(), options);
      onCleanup(() => app.close());
      return { app, call: appCaller(app) };
    },
  );
}

/** `test` with `testDb`: a fresh migrated database per test file, for tests that run the service as a process. */
export const databaseTest = test.extend('testDb', { scope: 'file' }, async ({}, { onCleanup }) => {
  const testDb = await createTestStatusListDb();
  onCleanup(() => testDb.drop());
  return testDb;
});
