import { eq, sql } from 'drizzle-orm';
import { describe, expect } from 'vitest';
import { createServiceMetrics } from '@tessera/service-kit';
import { missingServer, silentLogger, waitFor } from '@tessera/service-kit/testing';
import { statusListVersions, statusLists } from '../../src/db/schema.js';
import { startHistoryPruneJob } from '../../src/jobs/history-prune-job.js';
import { createHistoryMetrics } from '../../src/metrics/history-metrics.js';
import { pruneStatusListHistory } from '../../src/use-cases/prune-status-list-history.js';
import { harnessTest } from '../support/fixtures.js';
import { API_KEY_HEADERS, listUri, newListId, type Harness } from '../support/harness.js';
import { signStatusListToken } from '../support/status-list-token.js';

const auth = API_KEY_HEADERS;
const DAY_MS = 86_400_000;
// The app's own prune job runs once at start; it never meets a version older than a year here.
const test = harnessTest({ env: { STATUS_LIST_HISTORY_DAYS: '30' } });

/** A list written `writes` times (iat 1000, 2000, …): writes − 1 versions kept. */
async function listWithVersions({ call }: Harness, writes: number): Promise<string> {
  const id = newListId();
  for (let i = 1; i <= writes; i++) {
    const jwt = await signStatusListToken({ sub: listUri(id), iat: i * 1000, exp: null, statuses: [i % 2] });
    await call(i === 1 ? 'POST' : 'PATCH', i === 1 ? '/status-lists' : `/status-lists/${id}`, {
      headers: auth,
      body: i === 1 ? { id, jwt } : { jwt },
    });
  }
  return id;
}

/** Moves the moment a list's versions were replaced `days` into the past (as if time had passed). */
async function replacedDaysAgo({ testDb }: Harness, id: string, iat: number, days: number): Promise<void> {
  await testDb.database.db
    .update(statusListVersions)
    .set({ supersededAt: sql`now() - make_interval(days => ${days})` })
    .where(sql`${statusListVersions.listId} = ${id} and ${statusListVersions.iat} = ${iat}`);
}

const versionIats = async ({ testDb }: Harness, id: string) =>
  (await testDb.database.db.select().from(statusListVersions).where(eq(statusListVersions.listId, id)))
    .map((v) => v.iat)
    .sort((a, b) => a - b);

describe('pruneStatusListHistory', () => {
  test('deletes versions replaced longer ago than the history keeps, never the current token', async ({ harness }) => {
    const id = await listWithVersions(harness, 3); // versions iat 1000, 2000; current 3000
    await replacedDaysAgo(harness, id, 1000, 31);
    await replacedDaysAgo(harness, id, 2000, 29);
    expect((await harness.call('GET', `/status-lists/${id}?time=1500`)).status).toBe(200);

    const report = await pruneStatusListHistory(
      { db: harness.testDb.database.db, clock: () => new Date() },
      { historyDays: 30 },
    );
    expect(report).toEqual({ ran: true, versions: 1, more: false });
    expect(await versionIats(harness, id)).toEqual([2000]);
    // After pruning: the pruned version's times have no answer; the others do.
    const pruned = await harness.call('GET', `/status-lists/${id}?time=1500`);
    expect(pruned.status).toBe(404);
    expect(pruned.body.code).toBe('NO_STATUS_AT_TIME');
    expect((await harness.call('GET', `/status-lists/${id}?time=2500`)).status).toBe(200);
    expect((await harness.call('GET', `/status-lists/${id}?time=3000`)).status).toBe(200);

    // The clock decides: thirty days on, the other version goes too; the list stays.
    const later = await pruneStatusListHistory(
      { db: harness.testDb.database.db, clock: () => new Date(Date.now() + 2 * DAY_MS) },
      { historyDays: 30 },
    );
    expect(later.versions).toBe(1);
    expect(await versionIats(harness, id)).toEqual([]);
    const [row] = await harness.testDb.database.db.select().from(statusLists).where(eq(statusLists.id, id));
    expect(row?.iat).toBe(3000);
  });

  test('works in bounded batches and says when work is left', async ({ harness }) => {
    const id = await listWithVersions(harness, 6); // 5 versions
    for (const iat of [1000, 2000, 3000, 4000, 5000]) await replacedDaysAgo(harness, id, iat, 40);
    const deps = { db: harness.testDb.database.db, clock: () => new Date() };
    expect(await pruneStatusListHistory(deps, { historyDays: 30, batchSize: 2, maxBatches: 2 })).toEqual({
      ran: true,
      versions: 4,
      more: true,
    });
    // Oldest first.
    expect(await versionIats(harness, id)).toEqual([5000]);
    expect(await pruneStatusListHistory(deps, { historyDays: 30, batchSize: 2, maxBatches: 2 })).toEqual({
      ran: true,
      versions: 1,
      more: false,
    });
  });

  test('with 0 days keeps nothing', async ({ harness }) => {
    const id = await listWithVersions(harness, 3);
    const report = await pruneStatusListHistory(
      { db: harness.testDb.database.db, clock: () => new Date(Date.now() + 1000) },
      { historyDays: 0 },
    );
    expect(report.versions).toBeGreaterThanOrEqual(2);
    expect(await versionIats(harness, id)).toEqual([]);
  });

  // Two connections: needs a PostgreSQL server, not the embedded PGlite.
  test.skipIf(missingServer('postgres', 'history prune across replicas'))(
    'one runner across replicas: while another replica holds the prune lock, a run does nothing',
    async ({ harness }) => {
      const id = await listWithVersions(harness, 2);
      await replacedDaysAgo(harness, id, 1000, 40);
      const other = await harness.testDb.openAnother();
      let release: (() => void) | undefined;
      let locked = false;
      const holder = other.db.transaction(async (tx) => {
        await tx.execute(sql`select pg_advisory_xact_lock(1550015101)`);
        locked = true;
        await new Promise<void>((resolve) => (release = resolve));
      });
      await waitFor(async () => locked, 10000, 'the other replica to take the prune lock');
      const deps = { db: harness.testDb.database.db, clock: () => new Date() };
      expect(await pruneStatusListHistory(deps, { historyDays: 30 })).toEqual({ ran: false, versions: 0, more: false });
      expect(await versionIats(harness, id)).toEqual([1000]);
      release!();
      await holder;
      expect(await pruneStatusListHistory(deps, { historyDays: 30 })).toMatchObject({ ran: true, versions: 1 });
      await other.close();
    },
  );
});

describe('the history prune job', () => {
  test('prunes at start and counts its runs and the versions it deleted; a failed run is counted and logged', async ({
    harness,
  }) => {
    const id = await listWithVersions(harness, 3);
    await replacedDaysAgo(harness, id, 1000, 31);
    await replacedDaysAgo(harness, id, 2000, 31);
    const { registry } = createServiceMetrics({ service: 'status-list' });
    const stop = startHistoryPruneJob({
      db: harness.testDb.database.db,
      clock: () => new Date(),
      logger: silentLogger(),
      metrics: createHistoryMetrics(registry),
      historyDays: 30,
      intervalMs: 60_000,
    });
    await waitFor(async () => (await versionIats(harness, id)).length === 0, 10000, 'the job to prune');
    await stop();
    const text = await registry.metrics();
    expect(text).toContain('tessera_status_list_history_prune_runs_total{outcome="ran",service="status-list"} 1');
    expect(text).toContain('tessera_status_list_history_pruned_versions_total{service="status-list"} 2');

    // A database that is gone: the run fails, is counted, and the job goes on (it stops cleanly).
    const gone = await harness.testDb.openAnother();
    await gone.close();
    const failures = createServiceMetrics({ service: 'status-list' }).registry;
    const failing = startHistoryPruneJob({
      db: gone.db,
      clock: () => new Date(),
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
