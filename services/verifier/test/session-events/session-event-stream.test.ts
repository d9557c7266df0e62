import { describe, expect } from 'vitest';
import { answerWithCredential } from '../support/answers.js';
import { sdJwtQuery } from '../support/dcql-queries.js';
import { e2eTest } from '../support/fixtures.js';
import { resolveRedirectRequest } from '../support/holder.js';
import { ORG } from '../support/management.js';
import { storedSession } from '../support/stored-rows.js';
import { expectHubEmpty, openEventStream, stateOf } from './support.js';

// The session event stream of one replica over real HTTP (a real port), real
// PostgreSQL and NATS: the current state at once, each change pushed as the
// wallet moves the session, the end after a terminal state, Last-Event-ID,
// heartbeats, and expiry noticed with nobody touching the session.
const HEARTBEAT_MS = 200;
const test = e2eTest({ config: { SSE_HEARTBEAT_MS: String(HEARTBEAT_MS) } });

describe('following a session', () => {
  test('the current state at once, then RequestUriRetrieved and ResponseVerified as the wallet answers; the stream ends', async ({
    e2e: e,
    harness: h,
  }) => {
    const session = await e.createSession({ dcql: sdJwtQuery(), responseMode: 'direct_post' });
    const stream = await openEventStream(e.url, session.id, { ...(await h.auth(ORG)), 'x-request-id': 'sse-test-1' });
    expect(stream.status).toBe(200);
    expect(stream.headers.get('content-type')).toBe('text/event-stream; charset=utf-8');
    expect(stream.headers.get('cache-control')).toBe('no-store, no-transform');
    // The kit's hooks ran: the request id and the security headers are on the stream too.
    expect(stream.headers.get('x-request-id')).toBe('sse-test-1');
    expect(stream.headers.get('x-content-type-options')).toBe('nosniff');
    expect(stream.headers.get('content-security-policy')).toContain("default-src 'none'");

    const [first] = await stream.waitForEvents(1);
    expect(first!.id).toBe('1');
    expect(stateOf(first!)).toEqual({ id: session.id, state: 'RequestCreated', changedAt: session.updatedAt });

    expect(await answerWithCredential(e, 'sd-jwt', session)).toEqual({ status: 200, body: {} });
    const events = await stream.waitForEvents(3);
    await stream.waitForEnd();
    const record = await e.readSession(session.id);
    expect(events.map((event) => [event.id, stateOf(event).state])).toEqual([
      ['1', 'RequestCreated'],
      ['2', 'RequestUriRetrieved'],
      ['3', 'ResponseVerified'],
    ]);
    expect(stateOf(events[2]!)).toEqual({ id: session.id, state: 'ResponseVerified', changedAt: record.updatedAt });
    expect(stream.events).toHaveLength(3);
    await expectHubEmpty(h);
  });

  test('a wallet error ends the stream with Error and its code', async ({ e2e: e, harness: h }) => {
    const session = await e.createSession({ dcql: sdJwtQuery(), responseMode: 'direct_post' });
    const stream = await openEventStream(e.url, session.id, await h.auth(ORG));
    await stream.waitForEvents(1);
    expect(
      (
        await e.postForm(session.responseUri!, {
          error: 'access_denied',
          error_description: 'declined',
          state: session.payloadState,
        })
      ).status,
    ).toBe(200);
    await stream.waitForEnd();
    const last = stream.events.at(-1)!;
    expect(last.id).toBe('3');
    expect(stateOf(last)).toEqual({
      id: session.id,
      state: 'Error',
      error: { code: 'WALLET_ERROR', message: expect.any(String) },
      changedAt: (await e.readSession(session.id)).updatedAt,
    });
    await expectHubEmpty(h);
  });

  test('a client that connects after the change gets the current state, and the stream ends', async ({
    e2e: e,
    harness: h,
  }) => {
    const session = await e.createSession({ dcql: sdJwtQuery(), responseMode: 'direct_post' });
    await answerWithCredential(e, 'sd-jwt', session);
    const stream = await openEventStream(e.url, session.id, await h.auth(ORG));
    expect(stream.status).toBe(200);
    await stream.waitForEnd();
    expect(stream.events.map((event) => [event.id, stateOf(event).state])).toEqual([['3', 'ResponseVerified']]);
  });

  test('many streams of one session are one followed session on the replica, each getting every change', async ({
    e2e: e,
    harness: h,
  }) => {
    const session = await e.createSession({ dcql: sdJwtQuery(), responseMode: 'direct_post' });
    const streams = await Promise.all([1, 2, 3].map(async () => openEventStream(e.url, session.id, await h.auth(ORG))));
    for (const stream of streams) await stream.waitForEvents(1);
    expect(h.sessionEventHub.stats()).toMatchObject({ sessions: 1, listeners: 3, expiryTimers: 1 });
    await answerWithCredential(e, 'sd-jwt', session);
    for (const stream of streams) {
      await stream.waitForEnd();
      expect(stream.events.map((event) => event.id)).toEqual(['1', '2', '3']);
    }
    await expectHubEmpty(h);
  });
});

describe('Last-Event-ID', () => {
  test('a client that has the current state gets nothing at once, then only the newer state', async ({
    e2e: e,
    harness: h,
  }) => {
    const session = await e.createSession({ dcql: sdJwtQuery(), responseMode: 'direct_post' });
    await resolveRedirectRequest(e.wallet, session.authorizationRequestUri!);
    const stream = await openEventStream(e.url, session.id, { ...(await h.auth(ORG)), 'last-event-id': '2' });
    expect(stream.status).toBe(200);
    // Heartbeats arrive, events do not: the client already has RequestUriRetrieved.
    await waitFor(() => stream.comments.length >= 2);
    expect(stream.events).toEqual([]);
    await answerWithCredential(e, 'sd-jwt', session);
    await stream.waitForEnd();
    expect(stream.events.map((event) => [event.id, stateOf(event).state])).toEqual([['3', 'ResponseVerified']]);
  });

  test('a client behind gets what it missed, not what it had', async ({ e2e: e, harness: h }) => {
    const session = await e.createSession({ dcql: sdJwtQuery(), responseMode: 'direct_post' });
    await resolveRedirectRequest(e.wallet, session.authorizationRequestUri!);
    const stream = await openEventStream(e.url, session.id, { ...(await h.auth(ORG)), 'last-event-id': '1' });
    const [event] = await stream.waitForEvents(1);
    expect([event!.id, stateOf(event!).state]).toEqual(['2', 'RequestUriRetrieved']);
    stream.close();
    await expectHubEmpty(h);
  });

  test('a client that had only RequestCreated when the session was verified gets each state it missed, in order', async ({
    e2e: e,
    harness: h,
  }) => {
    const session = await e.createSession({ dcql: sdJwtQuery(), responseMode: 'direct_post' });
    await answerWithCredential(e, 'sd-jwt', session);
    const stream = await openEventStream(e.url, session.id, { ...(await h.auth(ORG)), 'last-event-id': '1' });
    await stream.waitForEnd();
    expect(stream.events.map((event) => [event.id, stateOf(event).state])).toEqual([
      ['2', 'RequestUriRetrieved'],
      ['3', 'ResponseVerified'],
    ]);
  });

  test('a client that has the terminal state gets 204 (an EventSource stops reconnecting); an id we never sent counts as none', async ({
    e2e: e,
    harness: h,
  }) => {
    const session = await e.createSession({ dcql: sdJwtQuery(), responseMode: 'direct_post' });
    await answerWithCredential(e, 'sd-jwt', session);
    const finished = await openEventStream(e.url, session.id, { ...(await h.auth(ORG)), 'last-event-id': '3' });
    expect(finished.status).toBe(204);
    expect(finished.body).toBeUndefined();
    for (const unknown of ['0', '4', 'abc', '2.5', '']) {
      const stream = await openEventStream(e.url, session.id, { ...(await h.auth(ORG)), 'last-event-id': unknown });
      expect(stream.status).toBe(200);
      await stream.waitForEnd();
      expect(stream.events.map((event) => event.id)).toEqual(['3']);
    }
    await expectHubEmpty(h);
  });
});

describe('heartbeats and expiry', () => {
  test('a heartbeat comment every SSE_HEARTBEAT_MS while nothing happens', async ({ e2e: e, harness: h }) => {
    const session = await e.createSession({ dcql: sdJwtQuery(), responseMode: 'direct_post' });
    const stream = await openEventStream(e.url, session.id, await h.auth(ORG));
    await stream.waitForEvents(1);
    const started = Date.now();
    await waitFor(() => stream.comments.length >= 3, 3000);
    expect(Date.now() - started).toBeGreaterThanOrEqual(2 * HEARTBEAT_MS - 50);
    expect(new Set(stream.comments)).toEqual(new Set(['heartbeat']));
    expect(stream.events).toHaveLength(1);
    stream.close();
    await expectHubEmpty(h);
  });

  test('expiry ends the stream though nobody touches the session: persisted, published, changedAt = expiresAt', async ({
    e2e: e,
    harness: h,
    sessionEvents,
  }) => {
    const session = await e.createSession({ dcql: sdJwtQuery(), responseMode: 'direct_post', expiresInSeconds: 1 });
    const stream = await openEventStream(e.url, session.id, await h.auth(ORG));
    await stream.waitForEvents(1);
    await stream.waitForEnd(4000);
    const last = stream.events.at(-1)!;
    expect(last.id).toBe('3');
    expect(stateOf(last)).toEqual({
      id: session.id,
      state: 'Error',
      error: { code: 'SESSION_EXPIRED', message: expect.any(String) },
      changedAt: session.expiresAt,
    });
    // The timer persisted the expiry through the expiry step, which published it to every replica.
    await sessionEvents.waitFor(session.id, 'Error');
    // As stored: a read through the API would persist the expiry itself.
    const stored = await storedSession(h.testDb.database, session.id);
    expect(stored).toMatchObject({ state: 'Error', errorCode: 'SESSION_EXPIRED' });
    await expectHubEmpty(h);
  });
});

async function waitFor(condition: () => boolean, timeoutMs = 3000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}
