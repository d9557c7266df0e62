import { describe, expect, it } from 'vitest';
import { AggregationCache, type AggregationSource } from '../../src/state/aggregation-cache.js';

/** A source over an array of URIs that counts its reads; `gate` holds a list read until released. */
function sourceOver(uris: string[]) {
  const reads = { lists: 0, counts: 0 };
  let gate: Promise<void> | undefined;
  const source: AggregationSource = {
    async listUris() {
      reads.lists += 1;
      const snapshot = [...uris];
      await gate;
      return snapshot;
    },
    async countLists() {
      reads.counts += 1;
      return uris.length;
    },
  };
  return {
    source,
    reads,
    hold() {
      let release!: () => void;
      gate = new Promise((resolve) => (release = resolve));
      return () => {
        gate = undefined;
        release();
      };
    },
  };
}

describe('AggregationCache', () => {
  it('serves from memory within the bound, synchronously, and reads the list once', async () => {
    let now = 0;
    const uris = ['a', 'b'];
    const { source, reads } = sourceOver(uris);
    const cache = new AggregationCache({ ttlMs: 1000, now: () => now });
    const first = await cache.get(source);
    expect(first.uris).toEqual(['a', 'b']);
    now = 999;
    expect(cache.get(source)).toBe(first);
    expect(reads).toEqual({ lists: 1, counts: 0 });
  });

  it('past the bound, keeps the very value while the number of lists is unchanged, and rereads when it changes', async () => {
    let now = 0;
    const uris = ['a'];
    const { source, reads } = sourceOver(uris);
    const cache = new AggregationCache({ ttlMs: 1000, now: () => now });
    const first = await cache.get(source);
    now = 1000;
    expect(await cache.get(source)).toBe(first);
    expect(reads).toEqual({ lists: 1, counts: 1 });
    // Confirmed current as of that check: served from memory again.
    now = 1500;
    expect(cache.get(source)).toBe(first);
    uris.push('b');
    now = 2000;
    const second = await cache.get(source);
    expect(second.uris).toEqual(['a', 'b']);
    expect(reads).toEqual({ lists: 2, counts: 2 });
  });

  it('after a local create, the next read looks again and does not join a read started before it', async () => {
    const uris = ['a'];
    const { source, reads, hold } = sourceOver(uris);
    const cache = new AggregationCache({ ttlMs: 60_000, now: () => 0 });
    const release = hold();
    const early = cache.get(source) as Promise<{ uris: readonly string[] }>;
    // A list is created (and acknowledged) while that read is under way.
    uris.push('b');
    cache.invalidate();
    const late = cache.get(source);
    expect(late).not.toBe(early);
    release();
    expect((await early).uris).toEqual(['a']);
    expect((await late).uris).toEqual(['a', 'b']);
    // What the early read saw is not kept: the cache holds the later value.
    expect((cache.get(source) as { uris: readonly string[] }).uris).toEqual(['a', 'b']);
    expect(reads.lists).toBe(2);
  });

  it('shares one refresh among concurrent reads', async () => {
    const { source, reads } = sourceOver(['a']);
    const cache = new AggregationCache({ ttlMs: 1000, now: () => 0 });
    const [one, two] = await Promise.all([cache.get(source), cache.get(source)]);
    expect(one).toBe(two);
    expect(reads.lists).toBe(1);
  });

  it('with a bound of 0 checks the database on every read', async () => {
    const { source, reads } = sourceOver(['a']);
    const cache = new AggregationCache({ ttlMs: 0, now: () => 0 });
    await cache.get(source);
    await cache.get(source);
    await cache.get(source);
    expect(reads).toEqual({ lists: 1, counts: 2 });
  });
});
