import { describe, expect, it } from 'vitest';
import { ifNoneMatchHits } from '@tessera/service-kit';
import { computeEtag, computeMaxAge } from '../../src/domain/http-caching.js';

describe('computeMaxAge', () => {
  const now = 1_000_000;
  it('uses the default without ttl and exp', () =>
    expect(computeMaxAge({ nowSeconds: now, defaultMaxAge: 60 })).toBe(60));
  it('uses ttl', () => expect(computeMaxAge({ ttl: 300, nowSeconds: now, defaultMaxAge: 60 })).toBe(300));
  it('never goes beyond exp', () =>
    expect(computeMaxAge({ ttl: 300, exp: now + 100, nowSeconds: now, defaultMaxAge: 60 })).toBe(100));
  it('uses exp alone', () => expect(computeMaxAge({ exp: now + 7200, nowSeconds: now, defaultMaxAge: 60 })).toBe(7200));
  it('is 0 once expired', () =>
    expect(computeMaxAge({ ttl: 300, exp: now - 5, nowSeconds: now, defaultMaxAge: 60 })).toBe(0));
});

describe('ifNoneMatchHits', () => {
  const etag = computeEtag('a.b.c');
  it('is a strong quoted hash that changes with the bytes', () => {
    expect(etag).toMatch(/^"[A-Za-z0-9_-]{43}"$/);
    expect(computeEtag('a.b.d')).not.toBe(etag);
  });
  it('matches exact, weak, listed and * validators', () => {
    expect(ifNoneMatchHits(etag, etag)).toBe(true);
    expect(ifNoneMatchHits(`W/${etag}`, etag)).toBe(true);
    expect(ifNoneMatchHits(`"other", ${etag}`, etag)).toBe(true);
    expect(ifNoneMatchHits('*', etag)).toBe(true);
  });
  it('does not match others or nothing', () => {
    expect(ifNoneMatchHits('"other"', etag)).toBe(false);
    expect(ifNoneMatchHits(undefined, etag)).toBe(false);
  });
});
