// The history's bound: pruneStatusListHistory through its deps on a real database, time
// held by the test (the updates stamp when each token was replaced by the same clock
// the prune reads), and the job that repeats it, with its metrics.
import { describe, expect } from 'vitest';
import { createServiceMetrics } from '@tessera/service-kit';
import { manualClock, missingServer, silentLogger, waitFor, type ManualClock } from '@tessera/service-kit/testing';
import { startHistoryPruneJob } from '../../src/jobs/history-prune-job.js';
import { createHistoryMetrics } from '../../src/metrics/history-metrics.js';
import { createStatusList } from '../../src/use-cases/create-status-list.js';
import { pruneStatusListHistory } from '../../src/use-cases/prune-status-list-history.js';
import { readStatusList } from '../../src/use-cases/read-status-list.js';
import { updateStatusList } from '../../src/use-cases/update-status-list.js';
import { databaseTest as test } from '../support/fixtures.js';
import { listUri, newListId } from '../support/harness.js';
import { holdHistoryPruneLock, storedStatusLists, storedVersions } from '../support/stored-lists.js';
import { signStatusListToken } from '../support/status-list-token.js';
import { replicaDeps, type ReplicaDeps } from '../support/use-cases.js';

const DAY_MS = 86_400_000;

/**
 * A list written at the clock's time with iat 1000, then updated once per entry of
 * `updateDaysApart` after that many days (iat 2000, 3000, …): each update keeps the
 * token it replaces, stamped with the clock's time then.
 */
async function listWithHistory(deps: ReplicaDeps, time: ManualClock, updateDaysApart: number[]): Promise<string> {
  const id = newListId();
  const token = (n: number) => signStatusListToken({ sub: listUri(id), iat: n * 1000, exp: null, statuses: [n % 2] });
  await createStatusList(deps, { id, jwt: await token(1) });
  for (const [index, days] of updateDaysApart.entries()) {
    time.advance(days * DAY_MS);
    await updateStatusList(deps, { id, jwt: await token(index + 2) });
  }
  return id;
}

const iatsOf = async (database: Parameters<typeof storedVersions>[0], id: string) =>
  (await storedVersions(database, id)).map((version) => version.iat);

describe('pruneStatusListHistory', () => {
  test('deletes versions replaced longer ago than the history keeps, never the current token', async ({ testDb }) => {
    const time = manualClock(new Date('2026-01-01T00:00:00Z'));
    const deps = replicaDeps(testDb.database, time, { keepHistory: true });
    // iat 1000 replaced on day 0, iat 2000 replaced on day 2; iat 3000 current.
    const id = await listWithHistory(deps, time, [0, 2]);
    expect(await iatsOf(testDb.database, id)).toEqual([1000, 2000]);

    // Thirty-one days after the first replacement: only that version is past a 30-day history.
    time.advance(29 * DAY_MS);
    expect(await pruneStatusListHistory(deps, { historyDays: 30 })).toEqual({ ran: true, versions: 1, more: false });
    expect(await iatsOf(testDb.database, id)).toEqual([2000]);
    // After pruning: the pruned version's times have no answer; the others do.
    await expect(readStatusList(deps, { id, time: '1500' })).rejects.toMatchObject({
      statusCode: 404,
      code: 'NO_STATUS_AT_TIME',
    });
    expect(await readStatusList(deps, { id, time: '2500' })).toMatchObject({ etag: expect.any(String) });

    // Exactly 30 days after the second replacement it is kept; a moment later it goes.
    time.advance(DAY_MS);
    expect((await pruneStatusListHistory(deps, { historyDays: 30 })).versions).toBe(0);
    time.advance(1);
    expect((await pruneStatusListHistory(deps, { historyDays: 30 })).versions).toBe(1);
    expect(await iatsOf(testDb.database, id)).toEqual([]);
    // The list itself, its current token, stays.
    expect((await storedStatusLists(testDb.database)).find((row) => row.id === id)?.iat).toBe(3000);
    expect(await readStatusList(deps, { id, time: '3000' })).toMatchObject({ exp: null });
  });

  test('works in bounded batches, oldest first, and says when work is left', async ({ testDb }) => {
    const time = manualClock();
    const deps = replicaDeps(testDb.database, time, { keepHistory: true });
    const id = await listWithHistory(deps, time, [0, 1, 1, 1, 1]); // 5 versions
    time.advance(40 * DAY_MS);
    expect(await pruneStatusListHistory(deps, { historyDays: 30, batchSize: 2, maxBatches: 2 })).toEqual({
      ran: true,
      versions: 4,
      more: true,
    });
    expect(await iatsOf(testDb.database, id)).toEqual([5000]);
    expect(await pruneStatusListHistory(deps, { historyDays: 30, batchSize: 2, maxBatches: 2 })).toEqual({
      ran: true,
      versions: 1,
      more: false,
    });
  });

  test('with 0 days keeps nothing: what an earlier setting kept goes', async ({ testDb }) => {
    const time = manualClock();
    const deps = replicaDeps(testDb.database, time, { keepHistory: true });
    const id = await listWithHistory(deps, time, [0, 0]);
    time.advance(1);
    expect((await pruneStatusListHistory(deps, { historyDays: 0 })).versions).toBe(2);
    expect(await iatsOf(testDb.database, id)).toEqual([]);
  });

  // Two connections: needs a PostgreSQL server, not the embedded PGlite.
  test.skipIf(missingServer('postgres', 'history prune across replicas'))(
    'one runner across replicas: while another replica holds the prune lock, a run does nothing',
    async ({ testDb }) => {
      const time = manualClock();
      const deps = replicaDeps(testDb.database, time, { keepHistory: true });
      const id = await listWithHistory(deps, time, [0]);
      time.advance(40 * DAY_MS);
      const other = await holdHistoryPruneLock(testDb);
      expect(await pruneStatusListHistory(deps, { historyDays: 30 })).toEqual({ ran: false, versions: 0, more: false });
      expect(await iatsOf(testDb.database, id)).toEqual([1000]);
      await other.release();
      expect(await pruneStatusListHistory(deps, { historyDays: 30 })).toMatchObject({ ran: true, versions: 1 });
    },
  );
});

describe('the history prune job', () => {
  test('prunes at start and counts its runs and the versions it deleted; a failed run is counted and the job goes on', async ({
    testDb,
  }) => {
    const time = manualClock();
    const deps = replicaDeps(testDb.database, time, { keepHistory: true });
    const id = await listWithHistory(deps, time, [0, 0]);
    time.advance(31 * DAY_MS);
    const { registry } = createServiceMetrics({ service: 'status-list' });
    const stop = startHistoryPruneJob({
      db: testDb.database.db,
      clock: time.clock,
      logger: silentLogger(),
      metrics: createHistoryMetrics(registry),
      historyDays: 30,
      intervalMs: 60_000,
    });
    await waitFor(async () => (await iatsOf(testDb.database, id)).length === 0, 10000, 'the job to prune');
    await stop();
    const text = await registry.metrics();
    expect(text).toContain('tessera_status_list_history_prune_runs_total{outcome="ran",service="status-list"} 1');
    expect(text).toContain('tessera_status_list_history_pruned_versions_total{service="status-list"} 2');

    // A database that is gone: the run fails, is counted, and the job still stops cleanly.
    const gone = await testDb.openAnother();
    await gone.close();
    const failures = createServiceMetrics({ service: 'status-list' }).registry;
    const failing = startHistoryPruneJob({
      db: gone.db,
      clock: time.clock,
      logger: silentLogger(),
      metrics: createHistoryMetrics(failures),
      historyDays: 30,
      intervalMs: 60_000,
    });
    await waitFor(
      async () => (await failures.metrics()).includes('outcome="failed"'),
      10000,
      'the failed run to be counted',
    );
    await failing();
  });
});
