import { describe, expect, it } from 'vitest';
import { checkUpdate } from '../../src/domain/check-update.js';

describe('checkUpdate', () => {
  const stored = { bits: 1, sub: 'https://s/status-lists/x', iat: 100 };
  const next = { bits: 1 as const, sub: stored.sub, iat: 100, listBytes: 1 };
  it('accepts a re-send and a newer token', () => {
    expect(checkUpdate(stored, next)).toEqual({ ok: true });
    expect(checkUpdate(stored, { ...next, iat: 101 })).toEqual({ ok: true });
  });
  it('refuses other bits, another sub and an older iat with their codes', () => {
    expect(checkUpdate(stored, { ...next, bits: 2 })).toMatchObject({ ok: false, code: 'BITS_MISMATCH' });
    expect(checkUpdate(stored, { ...next, sub: 'https://other/status-lists/x' })).toMatchObject({
      ok: false,
      code: 'SUBJECT_MISMATCH',
    });
    expect(checkUpdate(stored, { ...next, iat: 99 })).toMatchObject({ ok: false, code: 'STALE_UPDATE' });
  });
});
