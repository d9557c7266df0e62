// createStatusList through its deps (a real database, one replica's cache, a clock the test holds).
import { describe, expect } from 'vitest';
import { manualClock } from '@tessera/service-kit/testing';
import { computeEtag } from '../../src/domain/http-caching.js';
import { createStatusList } from '../../src/use-cases/create-status-list.js';
import { readStatusList } from '../../src/use-cases/read-status-list.js';
import { databaseTest as test } from '../support/fixtures.js';
import { listUri, newListId } from '../support/harness.js';
import { rawToken, signStatusListToken } from '../support/status-list-token.js';
import { storedStatusLists } from '../support/stored-lists.js';
import { replicaDeps } from '../support/use-cases.js';

const CREATED_AT = new Date('2026-03-01T10:00:00.000Z');

describe('createStatusList', () => {
  test('stores the token byte for byte under the canonical id, with its claims, created and updated at the clock time', async ({
    testDb,
  }) => {
    const deps = replicaDeps(testDb.database, manualClock(CREATED_AT));
    const id = newListId();
    const jwt = await signStatusListToken({
      sub: listUri(id),
      iat: 1_700_000_000,
      exp: 1_900_000_000,
      ttl: 300,
      bits: 2,
    });

    const created = await createStatusList(deps, { id: id.toUpperCase(), jwt: `  ${jwt}\n` });

    expect(created).toMatchObject({
      id,
      jwt,
      bits: 2,
      sub: listUri(id),
      iat: 1_700_000_000,
      exp: 1_900_000_000,
      ttl: 300,
    });
    expect(created.etag).toBe(computeEtag(jwt));
    expect(created.createdAt).toEqual(CREATED_AT);
    expect(created.updatedAt).toEqual(CREATED_AT);
    const [stored] = (await storedStatusLists(testDb.database)).filter((row) => row.id === id);
    expect(stored).toMatchObject({ jwt, etag: computeEtag(jwt), createdAt: CREATED_AT, updatedAt: CREATED_AT });
  });

  test('leaves exp and ttl empty when the token has none', async ({ testDb }) => {
    const deps = replicaDeps(testDb.database, manualClock());
    const id = newListId();
    const jwt = rawToken(
      { alg: 'ES256', typ: 'statuslist+jwt' },
      { sub: listUri(id), iat: 5, status_list: { bits: 1, lst: 'eNrbuRgAAhcBXQ' } },
    );
    const created = await createStatusList(deps, { id, jwt });
    expect(created).toMatchObject({ exp: null, ttl: null, iat: 5 });
  });

  test('refuses a token that breaks a rule with 400 INVALID_STATUS_LIST_JWT naming each rule, and stores nothing', async ({
    testDb,
  }) => {
    const deps = replicaDeps(testDb.database, manualClock());
    const id = newListId();
    const jwt = await signStatusListToken({ sub: 'https://status.example.com/status-lists/another', typ: 'JWT' });
    const before = await storedStatusLists(testDb.database);

    const refusal = createStatusList(deps, { id, jwt });

    await expect(refusal).rejects.toMatchObject({ statusCode: 400, code: 'INVALID_STATUS_LIST_JWT' });
    const { details } = (await refusal.catch((error: unknown) => error)) as { details: Array<{ path: string }> };
    expect(details.map((detail) => detail.path).sort()).toEqual(['/header/typ', '/payload/sub']);
    expect(await storedStatusLists(testDb.database)).toEqual(before);
  });

  test('refuses a list whose inflated size is over the limit, before storing anything', async ({ testDb }) => {
    const deps = replicaDeps(testDb.database, manualClock(), { maxListBytes: 100 });
    const id = newListId();
    const jwt = await signStatusListToken({ sub: listUri(id), statuses: Array.from({ length: 1000 }, () => 1) });
    await expect(createStatusList(deps, { id, jwt })).rejects.toMatchObject({
      statusCode: 400,
      code: 'INVALID_STATUS_LIST_JWT',
      details: [expect.objectContaining({ path: '/payload/status_list/lst' })],
    });
    expect((await storedStatusLists(testDb.database)).some((row) => row.id === id)).toBe(false);
  });

  test('refuses an id that is taken with 409 STATUS_LIST_EXISTS: the first list stays', async ({ testDb }) => {
    const deps = replicaDeps(testDb.database, manualClock());
    const id = newListId();
    const first = await signStatusListToken({ sub: listUri(id), iat: 1 });
    const second = await signStatusListToken({ sub: listUri(id), iat: 2 });
    await createStatusList(deps, { id, jwt: first });

    await expect(createStatusList(deps, { id: id.toUpperCase(), jwt: second })).rejects.toMatchObject({
      statusCode: 409,
      code: 'STATUS_LIST_EXISTS',
    });
    const stored = (await storedStatusLists(testDb.database)).filter((row) => row.id === id);
    expect(stored.map((row) => row.jwt)).toEqual([first]);
  });

  test('this replica serves the new list at once, even one it had remembered as missing', async ({ testDb }) => {
    const time = manualClock();
    const deps = replicaDeps(testDb.database, time, { ttlMs: 60_000 });
    const id = newListId();
    await expect(readStatusList(deps, { id })).rejects.toMatchObject({ statusCode: 404 });
    const jwt = await signStatusListToken({ sub: listUri(id) });

    await createStatusList(deps, { id, jwt });

    // A hit answers synchronously: no promise, no database read.
    const read = readStatusList(deps, { id });
    expect(read).not.toBeInstanceOf(Promise);
    expect(read).toMatchObject({ jwt, etag: computeEtag(jwt) });
  });
});
