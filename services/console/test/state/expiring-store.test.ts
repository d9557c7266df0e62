import { describe, expect, it } from 'vitest';
import { ExpiringStore } from '../../src/state/expiring-store.js';

describe("the sessions' store", () => {
  const make = (maxEntries = 10) => {
    let now = 0;
    const store = new ExpiringStore<{ who: string }>({ idleMs: 1000, maxAgeMs: 5000, maxEntries, now: () => now });
    return { store, advance: (ms: number) => (now += ms) };
  };

  it('keeps a value under a random 256-bit id', () => {
    const { store } = make();
    const a = store.create({ who: 'a' });
    const b = store.create({ who: 'b' });
    expect(a).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(a).not.toBe(b);
    expect(store.get(a)).toEqual({ who: 'a' });
    expect(store.get('made-up')).toBeUndefined();
  });

  it('ends an entry left idle, and every entry at its maximum age however much it is used', () => {
    const { store, advance } = make();
    const idle = store.create({ who: 'idle' });
    const busy = store.create({ who: 'busy' });
    for (let i = 0; i < 4; i++) {
      advance(900);
      expect(store.get(busy)).toBeDefined();
    }
    expect(store.get(idle)).toBeUndefined();
    advance(900);
    expect(store.get(busy)).toEqual({ who: 'busy' });
    advance(900);
    expect(store.get(busy)).toBeUndefined();
  });

  it('bounds its size: the least recently used go first', () => {
    const { store } = make(2);
    const first = store.create({ who: '1' });
    const second = store.create({ who: '2' });
    store.get(first);
    store.create({ who: '3' });
    expect(store.get(second)).toBeUndefined();
    expect(store.get(first)).toEqual({ who: '1' });
    expect(store.size).toBe(2);
  });

  it('gives a value taken once, once (a pending sign-in)', () => {
    const { store } = make();
    const id = store.create({ who: 'pending' });
    expect(store.take(id)).toEqual({ who: 'pending' });
    expect(store.take(id)).toBeUndefined();
  });
});
