import { randomUUID } from 'node:crypto';
import { EventSource } from 'eventsource';
import { describe, expect } from 'vitest';
import { captureLogger } from '@tessera/service-kit/testing';
import { answerWithCredential } from '../support/answers.js';
import { sdJwtQuery } from '../support/dcql-queries.js';
import { e2eFixture, e2eTest } from '../support/fixtures.js';
import { memberCall, ORG, OTHER_ORG, oid4vpPath } from '../support/management.js';
import { expectHubEmpty, openEventStream, stateOf, type EventStreamClient } from './support.js';

// What bounds a session event stream and who may open one, over real HTTP: the
// authorization of `GET verifier-presentation?id=` with JSON refusals before any
// stream, the per-organisation stream limit (429 + Retry-After), the idle timeout,
// and every way a stream ends (client gone, server shutdown) freeing its follower
// and slot. `lifecycle` is a second setting with small limits.
const log = captureLogger('verifier', 'info');
// `closing` (default timeouts: nothing but the close ends its streams) is closed by its one test.
const test = e2eTest()
  .extend(
    'lifecycle',
    { scope: 'file' },
    e2eFixture({
      logger: log.logger,
      config: { SSE_MAX_STREAMS_PER_ORG: '2', SSE_IDLE_TIMEOUT_MS: '600', SSE_HEARTBEAT_MS: '100' },
    }),
  )
  .extend('closing', { scope: 'file' }, e2eFixture());

describe('authorization and input (JSON refusals before any stream)', () => {
  test('401 without a valid token, 403 without a role in the organisation of the path, owner/admin/verifier stream', async ({
    e2e: e,
    harness: h,
  }) => {
    const session = await e.createSession({ dcql: sdJwtQuery(), responseMode: 'direct_post' });
    const none = await openEventStream(e.url, session.id, {});
    expect(none.status).toBe(401);
    expect(none.headers.get('content-type')).toMatch(/^application\/json/);
    expect(none.body).toMatchObject({
      statusCode: 401,
      error: 'Unauthorized',
      code: 'UNAUTHORIZED',
      message: expect.any(String),
    });
    expect((await openEventStream(e.url, session.id, { authorization: 'Basic abc' })).status).toBe(401);
    const foreign = await openEventStream(e.url, session.id, await h.auth(OTHER_ORG, ['owner']));
    expect(foreign.status).toBe(403);
    expect(foreign.body).toMatchObject({ statusCode: 403, code: 'FORBIDDEN' });
    // `member` is no verifier role (invited or plain members of the organisation).
    expect((await openEventStream(e.url, session.id, await h.auth(ORG, ['member']))).status).toBe(403);
    // A platform admin without a role in the organisation is no member of it either.
    const admin = await h.idp.mint({ platformAdmin: true });
    expect((await openEventStream(e.url, session.id, { authorization: `Bearer ${admin}` })).status).toBe(403);
    for (const role of ['owner', 'admin', 'verifier']) {
      const stream = await openEventStream(e.url, session.id, await h.auth(ORG, [role]));
      expect(stream.status).toBe(200);
      expect(stateOf((await stream.waitForEvents(1))[0]!).state).toBe('RequestCreated');
      stream.close();
    }
    await expectHubEmpty(h);
  });

  test("404 for another organisation's session, an unknown id and a malformed id; 400 without id", async ({
    e2e: e,
    harness: h,
    api,
  }) => {
    // OTHER_ORG's own session, asked for through ORG's path by a member of ORG.
    expect(
      (await api('POST', `${oid4vpPath(OTHER_ORG)}/verifier`, { verifierId: 'other-desk' }, { org: OTHER_ORG })).status,
    ).toBe(201);
    const other = await api(
      'POST',
      `${oid4vpPath(OTHER_ORG)}/presentation?verifierId=other-desk`,
      { dcql: sdJwtQuery(), responseMode: 'direct_post' },
      { org: OTHER_ORG },
    );
    expect(other.status).toBe(201);
    const auth = await h.auth(ORG);
    for (const id of [other.body.data.id as string, randomUUID(), 'not-a-uuid', "1' or '1'='1"]) {
      const refused = await openEventStream(e.url, id, auth);
      expect(refused.status, id).toBe(404);
      expect(refused.body).toMatchObject({ statusCode: 404, error: 'Not Found', code: 'NOT_FOUND' });
    }
    // The owner of OTHER_ORG streams it through its own path.
    const own = await openEventStream(e.url, other.body.data.id, await h.auth(OTHER_ORG, ['owner']), OTHER_ORG);
    expect(own.status).toBe(200);
    own.close();
    const missing = await fetch(`${e.url}${oid4vpPath()}/verifier-presentation-events`, { headers: auth });
    expect(missing.status).toBe(400);
    expect(await missing.json()).toMatchObject({
      statusCode: 400,
      code: 'VALIDATION_FAILED',
      details: [{ path: '/id', message: expect.any(String) }],
    });
    const tooLong = await openEventStream(e.url, randomUUID(), { ...auth, 'last-event-id': 'x'.repeat(201) });
    expect(tooLong.status).toBe(400);
    await expectHubEmpty(h);
  });
});

describe('documentation', () => {
  test('the OpenAPI document has the route with its text/event-stream answer, the event schema, 204 and the refusals', async ({
    harness: h,
  }) => {
    const docs = await h.call('GET', '/docs/json');
    const operation = docs.body.paths['/v1/orgs/{orgId}/oid4vp/verifier-presentation-events'].get;
    expect(Object.keys(operation.responses).sort()).toEqual(['200', '204', '400', '401', '403', '404', '429']);
    expect(operation.responses['200'].content['text/event-stream'].schema.properties).toMatchObject({
      id: { format: 'uuid' },
      state: expect.any(Object),
      error: expect.any(Object),
      changedAt: { format: 'date-time' },
    });
    expect(
      operation.parameters.map((parameter: { in: string; name: string }) => `${parameter.in}:${parameter.name}`).sort(),
    ).toEqual(['header:last-event-id', 'path:orgId', 'query:id']);
    expect(operation.security).toEqual([{ bearer: [] }]);
  });
});

describe('limits', () => {
  test('over SSE_MAX_STREAMS_PER_ORG: 429 RATE_LIMITED with Retry-After; a closed stream frees its slot', async ({
    lifecycle: { e2e: e, harness: h },
  }) => {
    const session = await e.createSession({ dcql: sdJwtQuery(), responseMode: 'direct_post' });
    const auth = await h.auth(ORG);
    const open = [await openEventStream(e.url, session.id, auth), await openEventStream(e.url, session.id, auth)];
    for (const stream of open) expect(stream.status).toBe(200);
    const refused = await openEventStream(e.url, session.id, auth);
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(refused.body).toMatchObject({
      statusCode: 429,
      error: 'Too Many Requests',
      code: 'RATE_LIMITED',
      message: expect.any(String),
    });
    // The limit is the organisation's: another organisation streams its own session meanwhile.
    const api = memberCall(h);
    expect(
      (await api('POST', `${oid4vpPath(OTHER_ORG)}/verifier`, { verifierId: 'other-desk' }, { org: OTHER_ORG })).status,
    ).toBe(201);
    const other = await api(
      'POST',
      `${oid4vpPath(OTHER_ORG)}/presentation?verifierId=other-desk`,
      { dcql: sdJwtQuery(), responseMode: 'direct_post' },
      { org: OTHER_ORG },
    );
    const otherStream = await openEventStream(e.url, other.body.data.id, await h.auth(OTHER_ORG), OTHER_ORG);
    expect(otherStream.status).toBe(200);
    otherStream.close();

    open[0]!.close();
    await waitFor(() => h.sessionEventHub.stats().streamsPerOrg[ORG] === 1);
    const again = await openEventStream(e.url, session.id, auth);
    expect(again.status).toBe(200);
    for (const stream of [open[1]!, again]) stream.close();
    await expectHubEmpty(h);
  });

  test('a stream that sent nothing for SSE_IDLE_TIMEOUT_MS ends (heartbeats do not count) and frees everything', async ({
    lifecycle: { e2e: e, harness: h },
  }) => {
    const session = await e.createSession({ dcql: sdJwtQuery(), responseMode: 'direct_post' });
    const auth = await h.auth(ORG);
    const stream = await openEventStream(e.url, session.id, { ...auth, 'x-request-id': 'idle-stream-1' });
    await stream.waitForEvents(1);
    const started = Date.now();
    await stream.waitForEnd(3000);
    expect(Date.now() - started).toBeGreaterThanOrEqual(400);
    expect(stream.comments.length).toBeGreaterThanOrEqual(3);
    expect(stream.events).toHaveLength(1);
    await expectHubEmpty(h);
    // A hijacked reply skips Fastify's response log: the stream logs its own end, with the request id and never the token.
    const closed = log
      .lines()
      .map((line) => JSON.parse(line))
      .filter((entry) => entry.msg === 'event stream closed' && entry.reqId === 'idle-stream-1');
    expect(closed).toEqual([
      expect.objectContaining({ reason: 'idle-timeout', events: 1, responseTime: expect.any(Number) }),
    ]);
    expect(log.text()).not.toContain(auth.authorization.slice('Bearer '.length));
  });

  test('clients that disconnect leave no follower, timer or slot behind', async ({
    lifecycle: { e2e: e, harness: h },
  }) => {
    const sessions = await Promise.all(
      [1, 2].map(() => e.createSession({ dcql: sdJwtQuery(), responseMode: 'direct_post' })),
    );
    const streams: EventStreamClient[] = [];
    for (const session of sessions) {
      const stream = await openEventStream(e.url, session.id, await h.auth(ORG));
      await stream.waitForEvents(1);
      streams.push(stream);
    }
    expect(h.sessionEventHub.stats()).toEqual({
      sessions: 2,
      listeners: 2,
      expiryTimers: 2,
      streamsPerOrg: { [ORG]: 2 },
    });
    for (const stream of streams) stream.close();
    await expectHubEmpty(h);
  });

  test('closing the app ends open streams at once (a graceful shutdown does not wait for clients)', async ({
    closing: { e2e: e, harness: h },
  }) => {
    const session = await e.createSession({ dcql: sdJwtQuery(), responseMode: 'direct_post', expiresInSeconds: 3600 });
    const streams = await Promise.all([1, 2].map(async () => openEventStream(e.url, session.id, await h.auth(ORG))));
    for (const stream of streams) await stream.waitForEvents(1);
    const started = Date.now();
    await h.app.close();
    expect(Date.now() - started).toBeLessThan(2000);
    for (const stream of streams) await stream.waitForEnd(1000);
    expect(h.sessionEventHub.stats()).toEqual({ sessions: 0, listeners: 0, expiryTimers: 0, streamsPerOrg: {} });
  });
});

describe('a standard EventSource client', () => {
  test('follows a session to its end and stops reconnecting (204 for the state it has)', async ({
    e2e: e,
    harness: h,
  }) => {
    const session = await e.createSession({ dcql: sdJwtQuery(), responseMode: 'direct_post' });
    const auth = await h.auth(ORG);
    const requests: Array<string | null> = [];
    const source = new EventSource(`${e.url}${oid4vpPath()}/verifier-presentation-events?id=${session.id}`, {
      fetch: (input, init) => {
        const headers = new Headers(init.headers);
        headers.set('authorization', auth.authorization);
        requests.push(headers.get('last-event-id'));
        return fetch(input, { ...init, headers });
      },
    });
    const received: Array<[string, string]> = [];
    source.addEventListener('state', (event) => received.push([event.lastEventId, JSON.parse(event.data).state]));
    const closed = new Promise<void>((resolve) =>
      source.addEventListener('error', () => {
        if (source.readyState === EventSource.CLOSED) resolve();
      }),
    );
    await waitFor(() => received.length === 1);
    await answerWithCredential(e, 'sd-jwt', session);
    await closed;
    expect(received).toEqual([
      ['1', 'RequestCreated'],
      ['2', 'RequestUriRetrieved'],
      ['3', 'ResponseVerified'],
    ]);
    // The stream ended after the terminal state; the reconnection said what it had and got 204.
    expect(requests).toEqual([null, '3']);
    source.close();
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
