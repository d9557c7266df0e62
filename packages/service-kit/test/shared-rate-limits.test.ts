import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  clientAddressKey,
  openDatabase,
  postgresRateLimitWindows,
  runRawStatement,
  SharedRateLimitCounts,
  type Database,
} from '../src/index.js';
import {
  captureLogger,
  createEmptyTestDatabase,
  manualClock,
  missingServer,
  silentLogger,
} from '../src/testing/index.js';

// The shared per-address rate limits (issue 28, item 1): keys by client address (IPv6 by
// network), counts judged in memory and exchanged through PostgreSQL in the background.

describe('clientAddressKey', () => {
  it('keeps an IPv4 address, and counts an IPv6 address by its network of the prefix length', () => {
    expect(clientAddressKey('192.0.2.7', 64)).toBe('192.0.2.7');
    expect(clientAddressKey('2001:db8:1:2:aaaa:bbbb:cccc:dddd', 64)).toBe('2001:db8:1:2::/64');
    expect(clientAddressKey('2001:0db8:0001:0002::1', 64)).toBe('2001:db8:1:2::/64');
    expect(clientAddressKey('2001:db8:1:2ff::1', 56)).toBe('2001:db8:1:200::/56');
    expect(clientAddressKey('2001:db8:1:2::1', 128)).toBe('2001:db8:1:2::1/128');
    expect(clientAddressKey('2001:db8:1:3::1', 64)).not.toBe(clientAddressKey('2001:db8:1:2::1', 64));
  });

  it('counts an IPv4-mapped IPv6 address as its IPv4 address, and leaves what is no address as it is', () => {
    expect(clientAddressKey('::ffff:198.51.100.4', 64)).toBe('198.51.100.4');
    expect(clientAddressKey('not-an-address', 64)).toBe('not-an-address');
  });
});

const WINDOW_MS = 60_000;
const SCOPE = 'GET /limited';

/** Two replicas' counts on one store, at the start of a window of a clock the test moves. */
function replicasOn(database: Database<Record<string, never>>, logger = silentLogger()) {
  const time = manualClock(new Date(Math.ceil(Date.now() / WINDOW_MS) * WINDOW_MS));
  const make = () =>
    new SharedRateLimitCounts({
      store: postgresRateLimitWindows(database.db, { schema: 'rl_test' }),
      clock: time.clock,
      logger,
      syncIntervalMs: 60_000,
    });
  return { time, a: make(), b: make() };
}

async function createTable(database: Database<Record<string, never>>) {
  for (const statement of [
    'create schema if not exists rl_test',
    'drop table if exists rl_test.rate_limit_windows',
    `create table rl_test.rate_limit_windows (key text primary key, count integer not null,
       window_ends_at timestamptz not null, updated_at timestamptz not null default now())`,
  ])
    await runRawStatement(database.db, statement, []);
}

/** What each backend must do alike: PGlite (what `npm start` runs) and a PostgreSQL server. */
function sharedLimitBehaviour(open: () => Promise<Database<Record<string, never>>>) {
  it('counts in memory, shares through the store at each exchange, and learns what another replica counted', async () => {
    const database = await open();
    try {
      await createTable(database);
      const { a, b } = replicasOn(database);
      const hit = (counts: SharedRateLimitCounts, key = '203.0.113.9') =>
        counts.hit(SCOPE, key, WINDOW_MS, 100).current;
      expect([hit(a), hit(a), hit(a)]).toEqual([1, 2, 3]);
      // Before any exchange, b knows nothing of a's three.
      expect(hit(b)).toBe(1);
      await a.sync();
      await b.sync();
      // b has its own one and a's three; a learns b's one at its next exchange.
      expect(hit(b)).toBe(5);
      await b.sync();
      await a.sync();
      expect(hit(a)).toBe(6);
      // A key b never counted: it knows the others' count from the first request on.
      expect([hit(a, '198.51.100.1'), hit(a, '198.51.100.1')]).toEqual([1, 2]);
      await a.sync();
      await b.sync();
      expect(hit(b, '198.51.100.1')).toBe(3);
      // Stored: hashes only.
      const keys = await runRawStatement<{ key: string }>(
        database.db,
        'select key from rl_test.rate_limit_windows',
        [],
      );
      expect(keys.every(({ key }) => /^[A-Za-z0-9_-]{43}$/.test(key))).toBe(true);
    } finally {
      await database.close();
    }
  });

  it('starts every key again in the next window, on every replica', async () => {
    const database = await open();
    try {
      await createTable(database);
      const { time, a, b } = replicasOn(database);
      for (let i = 0; i < 5; i++) a.hit(SCOPE, 'k', WINDOW_MS, 100);
      await a.sync();
      await b.sync();
      expect(b.hit(SCOPE, 'k', WINDOW_MS, 100).current).toBe(6);
      time.advance(WINDOW_MS);
      expect(b.hit(SCOPE, 'k', WINDOW_MS, 100)).toEqual({ current: 1, ttlMs: WINDOW_MS });
      await b.sync();
      await a.sync();
      expect(a.hit(SCOPE, 'k', WINDOW_MS, 100).current).toBe(2);
    } finally {
      await database.close();
    }
  });

  it('keeps counting when the store fails (each replica on its own), logs it once, and sends the counts once it is back', async () => {
    const database = await open();
    try {
      await createTable(database);
      const logs = captureLogger('rate-limits', 'warn');
      const { a, b } = replicasOn(database, logs.logger);
      await runRawStatement(database.db, 'alter table rl_test.rate_limit_windows rename to away', []);
      for (let i = 0; i < 4; i++) a.hit(SCOPE, 'k', WINDOW_MS, 100);
      await a.sync();
      await a.sync();
      expect(a.hit(SCOPE, 'k', WINDOW_MS, 100).current).toBe(5);
      expect(logs.text().match(/rate-limit counts not shared/g)).toHaveLength(1);
      await runRawStatement(database.db, 'alter table rl_test.away rename to rate_limit_windows', []);
      await a.sync();
      await b.sync();
      expect(b.hit(SCOPE, 'k', WINDOW_MS, 100).current).toBe(6);
    } finally {
      await database.close();
    }
  });

  it('shares a burst under the limit at once: a tenth of the limit since the last exchange starts one', async () => {
    const database = await open();
    try {
      await createTable(database);
      const { a, b } = replicasOn(database);
      // The limit is 100 and the interval a minute: the tenth request since the last
      // exchange starts one in the background, without a sync from the test.
      for (let i = 0; i < 10; i++) a.hit(SCOPE, 'burst', WINDOW_MS, 100);
      let stored = 0;
      for (let waited = 0; waited < 2000 && stored < 10; waited += 20) {
        await sleep(20);
        const [row] = await runRawStatement<{ count: number | null }>(
          database.db,
          'select max(count)::int as count from rl_test.rate_limit_windows',
          [],
        );
        stored = row?.count ?? 0;
      }
      expect(stored).toBe(10);
      await b.sync();
      expect(b.hit(SCOPE, 'burst', WINDOW_MS, 100).current).toBe(11);
      await a.stop();
      await b.stop();
    } finally {
      await database.close();
    }
  });
}

describe('SharedRateLimitCounts memory', () => {
  it('remembers at most maxKeys windows over all scopes, forgetting the oldest first', () => {
    const time = manualClock(new Date(Math.ceil(Date.now() / WINDOW_MS) * WINDOW_MS));
    const counts = new SharedRateLimitCounts({
      store: { exchange: () => Promise.reject(new Error('unused')), deleteEnded: () => Promise.resolve(0) },
      clock: time.clock,
      logger: silentLogger(),
      syncIntervalMs: 60_000,
      maxKeys: 2,
    });
    const hit = (scope: string, key: string) => counts.hit(scope, key, WINDOW_MS, 100).current;
    expect([hit('GET /a', 'k1'), hit('GET /a', 'k1')]).toEqual([1, 2]);
    // Two more windows, in another scope: the first one opened is forgotten.
    expect([hit('GET /b', 'k2'), hit('GET /b', 'k3')]).toEqual([1, 1]);
    expect(hit('GET /a', 'k1')).toBe(1);
    // k3 was kept (k2 went for k1's new window).
    expect(hit('GET /b', 'k3')).toBe(2);
  });
});

describe('SharedRateLimitCounts on PGlite', () => {
  sharedLimitBehaviour(() => openDatabase({ schema: {} }));
});

describe.skipIf(missingServer('postgres', 'shared rate limits on a PostgreSQL server'))(
  'SharedRateLimitCounts on a PostgreSQL server',
  () => {
    let server: { url: string; drop(): Promise<void> };
    beforeAll(async () => {
      server = await createEmptyTestDatabase();
    });
    afterAll(() => server.drop());
    sharedLimitBehaviour(() => openDatabase({ schema: {}, url: server.url }));

    it('exchanges many keys from two replicas at once without deadlock, and both end with the same totals', async () => {
      const database = await openDatabase({ schema: {}, url: server.url });
      const other = await openDatabase({ schema: {}, url: server.url });
      try {
        await createTable(database);
        const time = manualClock(new Date(Math.ceil(Date.now() / WINDOW_MS) * WINDOW_MS));
        const make = (db: Database<Record<string, never>>) =>
          new SharedRateLimitCounts({
            store: postgresRateLimitWindows(db.db, { schema: 'rl_test' }),
            clock: time.clock,
            logger: silentLogger(),
            syncIntervalMs: 60_000,
          });
        const a = make(database);
        const b = make(other);
        const keys = Array.from({ length: 3000 }, (_, i) => `key-${i}`);
        for (let round = 0; round < 5; round++) {
          // Opposite orders: an upsert that locked rows in arrival order would deadlock here.
          for (const key of keys) a.hit(SCOPE, key, WINDOW_MS, 1_000_000);
          for (const key of [...keys].reverse()) b.hit(SCOPE, key, WINDOW_MS, 1_000_000);
          await Promise.all([a.sync(), b.sync()]);
        }
        await Promise.all([a.sync(), b.sync()]);
        await Promise.all([a.sync(), b.sync()]);
        const [row] = await runRawStatement<{ total: number }>(
          database.db,
          'select sum(count)::int as total from rl_test.rate_limit_windows',
          [],
        );
        expect(row!.total).toBe(2 * 5 * keys.length);
        // Each knows the ten of both, and counts its own eleventh.
        expect(a.hit(SCOPE, 'key-7', WINDOW_MS, 1_000_000).current).toBe(11);
        expect(b.hit(SCOPE, 'key-7', WINDOW_MS, 1_000_000).current).toBe(11);
      } finally {
        await database.close();
        await other.close();
      }
    });
  },
);
