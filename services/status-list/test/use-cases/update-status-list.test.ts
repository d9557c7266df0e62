// updateStatusList through its deps (a real database, one replica's cache, a clock the test holds).
import { describe, expect } from 'vitest';
import { hasServerPostgres, manualClock } from '@tessera/service-kit/testing';
import { computeEtag } from '../../src/domain/http-caching.js';
import { createStatusList } from '../../src/use-cases/create-status-list.js';
import { readStatusList } from '../../src/use-cases/read-status-list.js';
import { updateStatusList } from '../../src/use-cases/update-status-list.js';
import { databaseTest as test } from '../support/fixtures.js';
import { listUri, newListId } from '../support/harness.js';
import { signStatusListToken, type TokenOptions } from '../support/status-list-token.js';
import { storedStatusLists } from '../support/stored-lists.js';
import { replicaDeps, type ReplicaDeps } from '../support/use-cases.js';

const CREATED_AT = new Date('2026-03-01T10:00:00.000Z');

/** A stored list of `options` (sub: the list's URI unless given), created at CREATED_AT. */
async function storedList(deps: ReplicaDeps, options: Partial<TokenOptions> = {}) {
  const id = newListId();
  const jwt = await signStatusListToken({ sub: listUri(id), iat: 100, ...options });
  return createStatusList(deps, { id, jwt });
}

describe('updateStatusList', () => {
  test('replaces the token and its claims, keeps createdAt, and moves updatedAt to the clock time', async ({
    testDb,
  }) => {
    const time = manualClock(CREATED_AT);
    const deps = replicaDeps(testDb.database, time);
    const list = await storedList(deps, { ttl: 300 });
    time.advance(90_000);
    const jwt = await signStatusListToken({ sub: list.sub, iat: 200, exp: 2_000_000_000, statuses: [1, 1, 1] });

    const updated = await updateStatusList(deps, { id: list.id, jwt: ` ${jwt} ` });

    expect(updated).toMatchObject({
      id: list.id,
      jwt,
      iat: 200,
      exp: 2_000_000_000,
      ttl: null,
      etag: computeEtag(jwt),
    });
    expect(updated.createdAt).toEqual(CREATED_AT);
    expect(updated.updatedAt).toEqual(new Date(CREATED_AT.getTime() + 90_000));
    expect((await storedStatusLists(testDb.database)).find((row) => row.id === list.id)).toEqual(updated);
  });

  test('accepts a token with the stored iat (a re-send)', async ({ testDb }) => {
    const deps = replicaDeps(testDb.database, manualClock());
    const list = await storedList(deps);
    const resent = await signStatusListToken({ sub: list.sub, iat: list.iat, statuses: [1] });
    expect((await updateStatusList(deps, { id: list.id, jwt: resent })).jwt).toBe(resent);
  });

  test('refuses an unknown list with 404 and stores nothing', async ({ testDb }) => {
    const deps = replicaDeps(testDb.database, manualClock());
    const id = newListId();
    const jwt = await signStatusListToken({ sub: listUri(id) });
    await expect(updateStatusList(deps, { id, jwt })).rejects.toMatchObject({ statusCode: 404, code: 'NOT_FOUND' });
    expect((await storedStatusLists(testDb.database)).some((row) => row.id === id)).toBe(false);
  });

  test.for([
    ['BITS_MISMATCH', { bits: 2 }],
    ['SUBJECT_MISMATCH', { subHost: 'https://other.example.com' }],
    ['STALE_UPDATE', { iat: 99 }],
  ] as const)('refuses %s with 409 and keeps the stored list', async ([code, change], { testDb }) => {
    const deps = replicaDeps(testDb.database, manualClock());
    const list = await storedList(deps, { bits: 1 });
    const sub = 'subHost' in change ? `${change.subHost}/status-lists/${list.id}` : list.sub;
    const jwt = await signStatusListToken({
      sub,
      iat: 'iat' in change ? change.iat : 150,
      bits: 'bits' in change ? change.bits : 1,
    });

    await expect(updateStatusList(deps, { id: list.id, jwt })).rejects.toMatchObject({ statusCode: 409, code });
    expect((await storedStatusLists(testDb.database)).find((row) => row.id === list.id)).toEqual(list);
  });

  test('refuses a token that breaks a rule with 400 INVALID_STATUS_LIST_JWT and keeps the stored list', async ({
    testDb,
  }) => {
    const deps = replicaDeps(testDb.database, manualClock());
    const list = await storedList(deps);
    await expect(updateStatusList(deps, { id: list.id, jwt: 'not-a-jwt' })).rejects.toMatchObject({
      statusCode: 400,
      code: 'INVALID_STATUS_LIST_JWT',
      details: [expect.objectContaining({ path: '/jwt' })],
    });
    expect((await storedStatusLists(testDb.database)).find((row) => row.id === list.id)).toEqual(list);
  });

  test('this replica serves the new token at once, though it held the old one', async ({ testDb }) => {
    const deps = replicaDeps(testDb.database, manualClock(), { ttlMs: 60_000 });
    const list = await storedList(deps);
    expect(readStatusList(deps, { id: list.id })).toMatchObject({ jwt: list.jwt });
    const jwt = await signStatusListToken({ sub: list.sub, iat: 101, statuses: [1, 0, 1] });

    await updateStatusList(deps, { id: list.id, jwt });

    expect(readStatusList(deps, { id: list.id })).toMatchObject({ jwt, etag: computeEtag(jwt) });
  });

  // Concurrent transactions on several connections: a PostgreSQL server, not the embedded PGlite.
  test.skipIf(!hasServerPostgres())(
    'concurrent updates take turns: none is lost, the newest token wins whatever the order, older ones are STALE_UPDATE',
    async ({ testDb }) => {
      const deps = replicaDeps(testDb.database, manualClock());
      const list = await storedList(deps, { iat: 1 });
      const iats = [7, 3, 12, 5, 9, 2, 11, 4, 8, 10, 6];
      const tokens = await Promise.all(iats.map((iat) => signStatusListToken({ sub: list.sub, iat })));

      const outcomes = await Promise.allSettled(tokens.map((jwt) => updateStatusList(deps, { id: list.id, jwt })));

      for (const outcome of outcomes) {
        if (outcome.status === 'rejected') expect(outcome.reason).toMatchObject({ code: 'STALE_UPDATE' });
      }
      const stored = (await storedStatusLists(testDb.database)).find((row) => row.id === list.id);
      expect(stored?.iat).toBe(12);
      expect(stored?.jwt).toBe(tokens[iats.indexOf(12)]);
    },
  );
});
