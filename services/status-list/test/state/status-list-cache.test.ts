import { describe, expect, it } from 'vitest';
import { StatusListCache, type CachedStatusList } from '../../src/state/status-list-cache.js';
import { startCacheSync } from '../../src/state/cache-sync.js';
import { silentLogger } from '@tessera/service-kit/testing';

const list = (jwt: string): CachedStatusList => ({
  jwt,
  etag: `"${jwt}"`,
  ttl: null,
  exp: null,
  updatedAt: new Date(0),
});

describe('StatusListCache', () => {
  it('serves from memory within the bound and reloads after it', async () => {
    let now = 0;
    let loads = 0;
    const cache = new StatusListCache({ ttlMs: 1000, maxEntries: 10, now: () => now });
    const load = async () => {
      loads += 1;
      return list(`v${loads}`);
    };
    expect((await cache.get('a', load))?.jwt).toBe('v1');
    now = 999;
    expect((await cache.get('a', load))?.jwt).toBe('v1');
    now = 1000;
    expect((await cache.get('a', load))?.jwt).toBe('v2');
    expect(loads).toBe(2);
  });

  it('answers a current entry synchronously with the very value stored, and a miss with a promise', async () => {
    let now = 0;
    const cache = new StatusListCache({ ttlMs: 1000, maxEntries: 10, now: () => now });
    const value = list('v1');
    const miss = cache.get('a', async () => value);
    expect(miss).toBeInstanceOf(Promise);
    expect(await miss).toBe(value);
    // The read path keeps what it derives from a value (headers, encodings) by its identity.
    expect(cache.get('a', async () => list('reloaded'))).toBe(value);
    const written = list('v2');
    cache.set('a', written);
    expect(cache.get('a', async () => list('reloaded'))).toBe(written);
    now = 1000;
    expect(cache.get('a', async () => list('reloaded'))).toBeInstanceOf(Promise);
  });

  it('remembers a missing list only within the bound', async () => {
    let now = 0;
    let value: CachedStatusList | null = null;
    const cache = new StatusListCache({ ttlMs: 100, maxEntries: 10, now: () => now });
    expect(await cache.get('a', async () => value)).toBeNull();
    value = list('created elsewhere');
    expect(await cache.get('a', async () => value)).toBeNull();
    now = 100;
    expect((await cache.get('a', async () => value))?.jwt).toBe('created elsewhere');
  });

  it('shares one load among concurrent misses', async () => {
    let loads = 0;
    const cache = new StatusListCache({ ttlMs: 1000, maxEntries: 10, now: Date.now });
    const load = async () => {
      loads += 1;
      await new Promise((r) => setTimeout(r, 10));
      return list('v');
    };
    // get answers synchronously on a hit and with a promise on a miss: resolve both kinds.
    await Promise.all(Array.from({ length: 20 }, async () => cache.get('a', load)));
    expect(loads).toBe(1);
  });

  it('keeps a local write made while an older read was in flight', async () => {
    const cache = new StatusListCache({ ttlMs: 1000, maxEntries: 10, now: Date.now });
    let release: (v: CachedStatusList) => void = () => {};
    const slow = cache.get('a', () => new Promise((resolve) => (release = resolve)));
    cache.set('a', list('new'));
    release(list('old'));
    await slow;
    expect((await cache.get('a', async () => list('reloaded')))?.jwt).toBe('new');
  });

  it('evicts the oldest entries beyond maxEntries', async () => {
    const cache = new StatusListCache({ ttlMs: 1000, maxEntries: 2, now: Date.now });
    for (const id of ['a', 'b', 'c']) await cache.get(id, async () => list(id));
    expect(cache.size).toBe(2);
    let reloaded = false;
    await cache.get('a', async () => {
      reloaded = true;
      return list('a');
    });
    expect(reloaded).toBe(true);
  });

  it('caches nothing when the bound is 0', async () => {
    let loads = 0;
    const cache = new StatusListCache({ ttlMs: 0, maxEntries: 10, now: Date.now });
    await cache.get('a', async () => list(String(++loads)));
    await cache.get('a', async () => list(String(++loads)));
    expect(loads).toBe(2);
  });

  it('change polls drop entries written elsewhere and confirm the rest; entries read before the first poll only expire', async () => {
    let now = 0;
    const cache = new StatusListCache({ ttlMs: 1000, maxEntries: 10, now: () => now });
    await cache.get('early', async () => list('early1'));
    cache.applyChanges(0, []); // poll 0: establishes the watermark
    now = 100;
    await cache.get('a', async () => list('a1'));
    await cache.get('b', async () => list('b1'));
    await cache.get('c', async () => null);
    now = 900;
    cache.applyChanges(800, [
      { id: 'a', etag: '"a2"' },
      { id: 'b', etag: '"b1"' },
      { id: 'c', etag: '"c1"' },
    ]);
    now = 1500;
    let reloads: string[] = [];
    const load = async (id: string) => {
      reloads.push(id);
      return list(`${id}2`);
    };
    expect((await cache.get('a', load))?.jwt).toBe('a2');
    expect((await cache.get('b', load))?.jwt).toBe('b1');
    expect((await cache.get('c', load))?.jwt).toBe('c2');
    expect((await cache.get('early', load))?.jwt).toBe('early2');
    expect(reloads).toEqual(['a', 'c', 'early']);
    now = 1801;
    reloads = [];
    await cache.get('b', load);
    expect(reloads).toEqual(['b']);
  });

  it('does not store a read that was in flight when a poll reported a write to its list', async () => {
    const cache = new StatusListCache({ ttlMs: 10_000, maxEntries: 10, now: Date.now });
    cache.applyChanges(Date.now(), []);
    let release: (v: CachedStatusList) => void = () => {};
    const slow = cache.get('a', () => new Promise((resolve) => (release = resolve)));
    cache.applyChanges(Date.now(), [{ id: 'a', etag: '"new"' }]);
    release(list('old'));
    expect((await slow)?.jwt).toBe('old');
    expect((await cache.get('a', async () => list('new')))?.jwt).toBe('new');
  });

  it('polls changes on an interval, passing each watermark on; entries expire when polls fail', async () => {
    const cache = new StatusListCache({ ttlMs: 200, maxEntries: 10, now: Date.now });
    let failing = false;
    let loads = 0;
    const sinces: Array<number | undefined> = [];
    const stop = startCacheSync({
      cache,
      intervalMs: 20,
      logger: silentLogger(),
      now: Date.now,
      pollChanges: async (since) => {
        if (failing) throw new Error('database down');
        sinces.push(since);
        return { watermark: sinces.length * 10, changes: [] };
      },
    });
    await new Promise((r) => setTimeout(r, 30));
    const load = async () => {
      loads += 1;
      return list('v');
    };
    await cache.get('a', load);
    await new Promise((r) => setTimeout(r, 300));
    await cache.get('a', load);
    expect(loads).toBe(1);
    expect(sinces.slice(0, 3)).toEqual([undefined, 10, 20]);
    failing = true;
    await new Promise((r) => setTimeout(r, 300));
    await cache.get('a', load);
    expect(loads).toBe(2);
    await stop();
  });
});
