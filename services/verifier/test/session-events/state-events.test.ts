import { describe, expect } from 'vitest';
import { silentLogger } from '@tessera/service-kit/testing';
import { isTerminalState, parseLastEventId, stateEventId } from '../../src/domain/session-event-ids.js';
import {
  toSessionStateEvent,
  toSessionStateEvents,
  type SessionStateEventOut,
  type SessionStateFacts,
} from '../../src/domain/session-state-events.js';
import { SessionEventHub } from '../../src/state/session-event-hub.js';
import { followSessionEvents } from '../../src/use-cases/follow-session-events.js';
import { persistSessionExpiry } from '../../src/use-cases/steps/persist-session-expiry.js';
import { sdJwtQuery } from '../support/dcql-queries.js';
import { verifierTest as test } from '../support/fixtures.js';
import { ORG, oid4vpPath } from '../support/management.js';

// The rules of state events (pure), and the follow use case's race between
// reading a session and starting the stream, against the real database.

const row = (over: Partial<SessionStateFacts> = {}): SessionStateFacts => ({
  id: '00000000-0000-4000-8000-000000000001',
  state: 'RequestCreated',
  errorCode: null,
  errorSubject: null,
  createdAt: new Date('2026-01-01T10:00:00Z'),
  requestRetrievedAt: null,
  updatedAt: new Date('2026-01-01T10:00:00Z'),
  expiresAt: new Date('2026-01-01T10:05:00Z'),
  ...over,
});

describe('event ids and Last-Event-ID', () => {
  test('the state’s rank: 1, 2, 3 for both terminal states; terminal states end the stream', () => {
    expect(
      ['RequestCreated', 'RequestUriRetrieved', 'ResponseVerified', 'Error'].map((state) =>
        stateEventId(state as never),
      ),
    ).toEqual([1, 2, 3, 3]);
    expect(
      ['RequestCreated', 'RequestUriRetrieved', 'ResponseVerified', 'Error'].map((state) =>
        isTerminalState(state as never),
      ),
    ).toEqual([false, false, true, true]);
  });

  test('only ids we send are understood; anything else reads as no Last-Event-ID', () => {
    expect(['1', '2', '3', ' 3 '].map(parseLastEventId)).toEqual([1, 2, 3, 3]);
    expect([undefined, '', '0', '4', '03', '2.0', 'RequestCreated', '-1'].map(parseLastEventId)).toEqual(
      Array(8).fill(undefined),
    );
  });
});

describe('a state event', () => {
  const inTime = new Date('2026-01-01T10:01:00Z');
  const late = new Date('2026-01-01T10:06:00Z');

  test('carries { id, state, changedAt = updatedAt }, and error once in Error', () => {
    expect(toSessionStateEvent(row(), inTime)).toEqual({
      eventId: 1,
      terminal: false,
      data: { id: row().id, state: 'RequestCreated', changedAt: '2026-01-01T10:00:00.000Z' },
    });
    const failed = row({
      state: 'Error',
      errorCode: 'WALLET_ERROR',
      errorSubject: 'access_denied',
      updatedAt: new Date('2026-01-01T10:02:00Z'),
    });
    expect(toSessionStateEvent(failed, late)).toEqual({
      eventId: 3,
      terminal: true,
      data: {
        id: row().id,
        state: 'Error',
        error: { code: 'WALLET_ERROR', message: 'The wallet answered with an error: access_denied.' },
        changedAt: '2026-01-01T10:02:00.000Z',
      },
    });
  });

  test('an expired session reads Error/SESSION_EXPIRED changed at expiresAt, persisted or not', () => {
    const unpersisted = toSessionStateEvent(row({ state: 'RequestUriRetrieved' }), late);
    const persisted = toSessionStateEvent(
      row({ state: 'Error', errorCode: 'SESSION_EXPIRED', errorSubject: null, updatedAt: late }),
      late,
    );
    for (const event of [unpersisted, persisted])
      expect(event).toMatchObject({
        eventId: 3,
        terminal: true,
        data: { state: 'Error', error: { code: 'SESSION_EXPIRED' }, changedAt: '2026-01-01T10:05:00.000Z' },
      });
  });
});

describe('the states a session passed through', () => {
  const now = new Date('2026-01-01T10:03:00Z');
  const retrieved = new Date('2026-01-01T10:01:00Z');
  const verified = new Date('2026-01-01T10:02:00Z');
  const states = (events: SessionStateEventOut[]) =>
    events.map((event) => [event.eventId, event.data.state, event.data.changedAt]);

  test('each state with when it was reached, the current one last', () => {
    expect(states(toSessionStateEvents(row(), now))).toEqual([[1, 'RequestCreated', '2026-01-01T10:00:00.000Z']]);
    expect(
      states(
        toSessionStateEvents(
          row({ state: 'ResponseVerified', requestRetrievedAt: retrieved, updatedAt: verified }),
          now,
        ),
      ),
    ).toEqual([
      [1, 'RequestCreated', '2026-01-01T10:00:00.000Z'],
      [2, 'RequestUriRetrieved', '2026-01-01T10:01:00.000Z'],
      [3, 'ResponseVerified', '2026-01-01T10:02:00.000Z'],
    ]);
  });

  test('a session that was never fetched (DC API, expired unfetched) has no RequestUriRetrieved', () => {
    expect(states(toSessionStateEvents(row({ state: 'ResponseVerified', updatedAt: verified }), now))).toEqual([
      [1, 'RequestCreated', '2026-01-01T10:00:00.000Z'],
      [3, 'ResponseVerified', '2026-01-01T10:02:00.000Z'],
    ]);
    expect(
      states(toSessionStateEvents(row(), new Date('2026-01-01T10:06:00Z'))).map(([id, state]) => [id, state]),
    ).toEqual([
      [1, 'RequestCreated'],
      [3, 'Error'],
    ]);
  });
});

describe('following a session', () => {
  test('a change announced after the read but before the stream starts follows the state read', async ({
    harness: h,
    api,
    desk,
  }) => {
    const created = await api('POST', `${oid4vpPath()}/presentation?verifierId=${desk}`, {
      dcql: sdJwtQuery(),
      responseMode: 'direct_post',
    });
    const id = created.body.data.id as string;
    const db = h.testDb.database.db;
    const hub = new SessionEventHub({
      db,
      clock: () => new Date(),
      persistExpiry: (session, now) => persistSessionExpiry({ db, bus: h.bus }, { ...session, now }),
      logger: silentLogger(),
      maxStreamsPerOrg: 10,
      resyncMs: 60_000,
    });
    const followed = await followSessionEvents({ db, bus: h.bus, clock: () => new Date(), hub }, { orgId: ORG, id });
    expect(followed.kind).toBe('follow');
    if (followed.kind !== 'follow') return;
    // Another replica moves the session (the wallet fetched the request); its event reaches this hub before the route starts the stream.
    const authorizationRequestId = created.body.data.authorizationRequestId as string;
    expect((await h.call('GET', `/oid4vp/authorization-requests/${authorizationRequestId}`)).status).toBe(200);
    await hub.changed({ orgId: ORG, id });
    const sent: SessionStateEventOut[] = [];
    followed.follower.start((event) => sent.push(event));
    expect(sent.map((event) => [event.eventId, event.data.state])).toEqual([
      [1, 'RequestCreated'],
      [2, 'RequestUriRetrieved'],
    ]);
    followed.follower.stop();
    expect(hub.stats()).toEqual({ sessions: 0, listeners: 0, expiryTimers: 0, streamsPerOrg: {} });
  });
});
