// readStatusList through its deps: one replica's cache over a real database, the cache's
// time held by the test, and a second replica (another cache) writing to the same database.
import { describe, expect } from 'vitest';
import { manualClock } from '@tessera/service-kit/testing';
import { computeEtag } from '../../src/domain/http-caching.js';
import { createStatusList } from '../../src/use-cases/create-status-list.js';
import { readStatusList } from '../../src/use-cases/read-status-list.js';
import { updateStatusList } from '../../src/use-cases/update-status-list.js';
import { databaseTest as test } from '../support/fixtures.js';
import { listUri, newListId } from '../support/harness.js';
import { signStatusListToken } from '../support/status-list-token.js';
import { replicaDeps } from '../support/use-cases.js';

const BOUND_MS = 1000;

describe('readStatusList', () => {
  test('a miss reads the database (a promise); the next read is a hit, answered synchronously with the same value', async ({
    testDb,
  }) => {
    const time = manualClock();
    const writer = replicaDeps(testDb.database, time);
    const reader = replicaDeps(testDb.database, time, { ttlMs: BOUND_MS });
    const id = newListId();
    const jwt = await signStatusListToken({ sub: listUri(id), ttl: 300 });
    const created = await createStatusList(writer, { id, jwt });

    const miss = readStatusList(reader, { id });
    expect(miss).toBeInstanceOf(Promise);
    const found = await miss;
    expect(found).toMatchObject({ jwt, etag: computeEtag(jwt), ttl: 300, updatedAt: created.updatedAt });

    const hit = readStatusList(reader, { id });
    expect(hit).not.toBeInstanceOf(Promise);
    // The very object: what the read route derived from it (headers, encodings) stays valid.
    expect(hit).toBe(found);
  });

  test('an unknown list is 404 NOT_FOUND', async ({ testDb }) => {
    const deps = replicaDeps(testDb.database, manualClock());
    const id = newListId();
    await expect(readStatusList(deps, { id })).rejects.toMatchObject({
      statusCode: 404,
      code: 'NOT_FOUND',
      message: `No status list ${id}.`,
    });
  });

  test('?time= is 501 HISTORY_NOT_SUPPORTED, refused at once without a lookup, for a stored list too', async ({
    testDb,
  }) => {
    const deps = replicaDeps(testDb.database, manualClock());
    const id = newListId();
    await createStatusList(deps, { id, jwt: await signStatusListToken({ sub: listUri(id) }) });
    for (const listId of [id, newListId()]) {
      expect(() => readStatusList(deps, { id: listId, time: '1700000000' })).toThrow(
        expect.objectContaining({ statusCode: 501, code: 'HISTORY_NOT_SUPPORTED' }),
      );
    }
  });

  test("another replica's write is served once the staleness bound has passed on this replica's clock, not before", async ({
    testDb,
  }) => {
    const time = manualClock();
    const reader = replicaDeps(testDb.database, time, { ttlMs: BOUND_MS });
    const writer = replicaDeps(testDb.database, time);
    const id = newListId();
    const v1 = await signStatusListToken({ sub: listUri(id), iat: 1 });
    const v2 = await signStatusListToken({ sub: listUri(id), iat: 2, statuses: [1, 1] });
    await createStatusList(writer, { id, jwt: v1 });
    expect((await readStatusList(reader, { id })).jwt).toBe(v1);

    await updateStatusList(writer, { id, jwt: v2 });

    time.advance(BOUND_MS - 1);
    expect(readStatusList(reader, { id })).toMatchObject({ jwt: v1 });
    time.advance(1);
    expect((await readStatusList(reader, { id })).jwt).toBe(v2);
  });

  test('a list remembered as missing is found once the bound has passed', async ({ testDb }) => {
    const time = manualClock();
    const reader = replicaDeps(testDb.database, time, { ttlMs: BOUND_MS });
    const writer = replicaDeps(testDb.database, time);
    const id = newListId();
    await expect(readStatusList(reader, { id })).rejects.toMatchObject({ statusCode: 404 });
    const jwt = await signStatusListToken({ sub: listUri(id) });
    await createStatusList(writer, { id, jwt });

    // Within the bound the answer comes from memory, synchronously: still unknown.
    expect(() => readStatusList(reader, { id })).toThrow(expect.objectContaining({ statusCode: 404 }));
    time.advance(BOUND_MS);
    expect((await readStatusList(reader, { id })).jwt).toBe(jwt);
  });

  test('with a bound of 0 every read goes to the database', async ({ testDb }) => {
    const time = manualClock();
    const reader = replicaDeps(testDb.database, time, { ttlMs: 0 });
    const writer = replicaDeps(testDb.database, time);
    const id = newListId();
    const v1 = await signStatusListToken({ sub: listUri(id), iat: 1 });
    const v2 = await signStatusListToken({ sub: listUri(id), iat: 2, statuses: [1] });
    await createStatusList(writer, { id, jwt: v1 });
    expect((await readStatusList(reader, { id })).jwt).toBe(v1);
    await updateStatusList(writer, { id, jwt: v2 });
    const read = readStatusList(reader, { id });
    expect(read).toBeInstanceOf(Promise);
    expect((await read).jwt).toBe(v2);
  });

  test('concurrent misses of one list share one database read', async ({ testDb }) => {
    const time = manualClock();
    const writer = replicaDeps(testDb.database, time);
    const id = newListId();
    const jwt = await signStatusListToken({ sub: listUri(id) });
    await createStatusList(writer, { id, jwt });
    let selects = 0;
    // Counts the queries the read path starts (findStatusList is one select).
    const countingDb = new Proxy(testDb.database.db, {
      get(target, property, receiver) {
        if (property === 'select') selects += 1;
        return Reflect.get(target, property, receiver) as unknown;
      },
    });
    const reader = { ...replicaDeps(testDb.database, time), db: countingDb };

    const reads = await Promise.all(Array.from({ length: 10 }, async () => readStatusList(reader, { id })));

    expect(selects).toBe(1);
    expect(new Set(reads).size).toBe(1);
    expect(reads[0]?.jwt).toBe(jwt);
  });
});
