import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from 'vitest';
import { createTestDatabase, type TestDatabase } from '@tessera/service-kit/testing';
// The database of a test is the verifier's schema, migrated: opening it is the one reason support reaches into src/db.
import { MIGRATIONS_FOLDER } from '../../src/db/migrations-folder.js';
import { schema, type VerifierDbSchema } from '../../src/db/schema.js';
import { createE2e, type E2e } from './e2e.js';
import { listenToSessionEvents } from './events.js';
import { createHarness, type Harness, type HarnessOptions } from './harness.js';
import { memberCall, oid4vpPath, type MemberCall } from './management.js';

/** Harness options, or a function making them when that needs I/O (a private server, a NATS connection). */
export type HarnessSetup = HarnessOptions | (() => Promise<HarnessOptions>);

export interface FixtureHooks {
  onCleanup(cleanup: () => Promise<void> | void): void;
}

/** The fixture function of a harness closed after the file: `harnessTest` uses it, and a file that needs a second app with other options. */
export function harnessFixture(setup: HarnessSetup = {}) {
  return async ({}: object, { onCleanup }: FixtureHooks) => {
    const harness = await createHarness(typeof setup === 'function' ? await setup() : setup);
    onCleanup(() => harness.close());
    return harness;
  };
}

/**
 * `test` with the file's `harness` (one verifier app on a fresh database and bus
 * namespace, closed after the file), `api` (management calls through
 * `harness.call` as a member of an organisation, ORG unless told), `desk` (the
 * id of ORG's verifier `desk`) and `sessionEvents` (the session events another
 * service receives); each made for the file when a test first asks for it.
 */
export function harnessTest(setup: HarnessSetup = {}) {
  return test
    .extend('harness', { scope: 'file' }, harnessFixture(setup))
    .extend('api', { scope: 'file' }, ({ harness }) => memberCall(harness))
    .extend('desk', { scope: 'file' }, ({ api }) => createDesk(api))
    .extend('sessionEvents', { scope: 'file' }, async ({ harness }, { onCleanup }) => {
      const events = await listenToSessionEvents(harness.connectPeer);
      onCleanup(() => events.close());
      return events;
    });
}

/** Creates ORG's verifier `desk` (201 or the test fails) and returns its id. */
export async function createDesk(api: MemberCall): Promise<string> {
  const created = await api('POST', `${oid4vpPath()}/verifier`, { verifierId: 'desk' });
  expect(created.status, created.raw).toBe(201);
  return created.body.data.verifierId as string;
}

/** The usual test: the default harness. */
export const verifierTest = harnessTest();

/**
 * `harnessTest` plus `e2e`: the app listening on 127.0.0.1, ORG trusting a test
 * issuer, sessions of `desk`, a wallet over HTTP (see e2e.ts), made for the file
 * when a test first asks for it.
 */
export function e2eTest(setup: HarnessSetup = {}) {
  return harnessTest(setup).extend('e2e', { scope: 'file' }, ({ harness, desk }) => createE2e(harness, desk));
}

/** An end-to-end setting of its own: its harness, management calls as a member of ORG, and `e2e` with ORG's `desk`. */
export interface E2eSetting {
  harness: Harness;
  api: MemberCall;
  e2e: E2e;
}

/**
 * The fixture function of another end-to-end setting (other harness options)
 * closed after the file: for a file that compares configurations, beside or
 * instead of `e2eTest`'s.
 */
export function e2eFixture(setup: HarnessSetup = {}) {
  return async ({}: object, hooks: FixtureHooks): Promise<E2eSetting> => {
    const harness = await harnessFixture(setup)({}, hooks);
    const api = memberCall(harness);
    return { harness, api, e2e: await createE2e(harness, await createDesk(api)) };
  };
}

/** A fresh database of the run's PostgreSQL with the verifier's migrations applied (dropped by its `drop`). */
export function createVerifierTestDatabase(): Promise<TestDatabase<VerifierDbSchema>> {
  return createTestDatabase({ schema, service: 'verifier', migrationsFolder: MIGRATIONS_FOLDER });
}

/** `test` with `testDb`: a fresh migrated database per file, for tests of start steps and of the service run as a process. */
export const databaseTest = test.extend(
  'testDb',
  { scope: 'file' },
  async ({}, { onCleanup }): Promise<TestDatabase<VerifierDbSchema>> => {
    const testDb = await createVerifierTestDatabase();
    onCleanup(() => testDb.drop());
    return testDb;
  },
);

/** The fixture function of a temporary directory, removed after the file. */
export function temporaryDirectory(prefix: string) {
  return ({}: object, { onCleanup }: FixtureHooks) => {
    const dir = mkdtempSync(join(tmpdir(), prefix));
    onCleanup(() => rmSync(dir, { recursive: true, force: true }));
    return dir;
  };
}
