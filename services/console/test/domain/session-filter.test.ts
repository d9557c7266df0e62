import { describe, expect, it } from 'vitest';
import { sessionListQuery } from '../../src/domain/session-filter.js';

describe("the session list's filters as the verifier's query", () => {
  const now = new Date('2026-03-01T12:00:00.000Z');

  it('sends the time window as createdAfter (the verifier cuts the list, so its pages and counts hold)', () => {
    expect(sessionListQuery({ window: 'hour' }, now)).toEqual({ createdAfter: '2026-03-01T11:00:00.000Z' });
    expect(sessionListQuery({ window: 'day' }, now)).toEqual({ createdAfter: '2026-02-28T12:00:00.000Z' });
    expect(sessionListQuery({ window: 'week' }, now)).toEqual({ createdAfter: '2026-02-22T12:00:00.000Z' });
  });

  it('sends the verifier and state as given, and no time for "at any time"', () => {
    expect(sessionListQuery({ window: 'all', verifierId: 'till', state: 'Error' }, now)).toEqual({
      publicVerifierId: 'till',
      state: 'Error',
    });
    expect(sessionListQuery({ window: 'all' }, now)).toEqual({});
  });
});
