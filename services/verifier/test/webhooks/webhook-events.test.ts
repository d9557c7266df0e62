import { describe, expect } from 'vitest';
import { sdJwtQuery } from '../support/dcql-queries.js';
import { listenToSessionEvents } from '../support/events.js';
import { ORG, oid4vpPath } from '../support/management.js';
import { storedSession } from '../support/stored-rows.js';
import { verifyWithStandardWebhooks } from './receiver.js';
import { createDeskSession, failSession, putWebhook, verifySession, webhookPath, webhookTest } from './support.js';

// What a session's end sends: one signed POST per subscribed event, over real HTTP
// to a real receiver, its signature checked with the `standardwebhooks` library
// (independent of the service's signing code); nothing for events the webhook does
// not subscribe to, nor for verifiers without a webhook.
const test = webhookTest();

describe('webhook events', () => {
  test('a verified session sends presentation.verified, signed per Standard Webhooks, without claims', async ({
    e2e: e,
    api,
    desk,
    receiver,
  }) => {
    const webhook = await putWebhook(api, desk, {
      url: receiver.url('/hooks?token=abc'),
      events: ['presentation.verified', 'presentation.failed', 'presentation.expired'],
    });
    const session = await createDeskSession(e);
    await verifySession(e, session);
    const [received] = await receiver.waitFor((entry) => entry.event.sessionId === session.id);
    expect(received!.path).toBe('/hooks?token=abc');
    expect(received!.headers['content-type']).toBe('application/json');
    expect(received!.event).toEqual({
      type: 'presentation.verified',
      id: expect.any(String),
      sessionId: session.id,
      verifierId: desk,
      state: 'ResponseVerified',
      occurredAt: expect.any(String),
    });
    // The body's keys in the documented order, and nothing else (no claims).
    expect(Object.keys(JSON.parse(received!.body))).toEqual([
      'type',
      'id',
      'sessionId',
      'verifierId',
      'state',
      'occurredAt',
    ]);
    expect(received!.headers['webhook-id']).toBe(received!.event.id);
    expect(Number(received!.headers['webhook-timestamp'])).toBeCloseTo(Date.now() / 1000, -1);
    expect(received!.headers['webhook-signature']).toMatch(/^v1,[A-Za-z0-9+/]{43}=$/);
    expect(verifyWithStandardWebhooks(webhook.secret, received!)).toEqual(received!.event);
    // occurredAt is when the session changed: its updatedAt.
    expect(received!.event.occurredAt).toBe((await e.readSession(session.id)).updatedAt);
  });

  test('a failed session sends presentation.failed with state Error', async ({ e2e: e, api, desk, receiver }) => {
    const webhook = await putWebhook(api, desk, { url: receiver.url(), events: ['presentation.failed'] });
    const session = await createDeskSession(e);
    await failSession(e, session);
    const [received] = await receiver.waitFor((entry) => entry.event.sessionId === session.id);
    expect(received!.event).toMatchObject({
      type: 'presentation.failed',
      sessionId: session.id,
      verifierId: desk,
      state: 'Error',
    });
    expect(verifyWithStandardWebhooks(webhook.secret, received!)).toEqual(received!.event);
  });

  test('a session nobody touches is expired by the sweeper: presentation.expired, and one session event on NATS', async ({
    e2e: e,
    api,
    desk,
    receiver,
    harness,
  }) => {
    const events = await listenToSessionEvents(harness.connectPeer);
    try {
      const webhook = await putWebhook(api, desk, { url: receiver.url(), events: ['presentation.expired'] });
      const session = await createDeskSession(e, { expiresInSeconds: 1 });
      // Nobody reads the session: the sweeper notices the expiry.
      const [received] = await receiver.waitFor((entry) => entry.event.sessionId === session.id, { timeoutMs: 5000 });
      expect(received!.event).toMatchObject({ type: 'presentation.expired', sessionId: session.id, state: 'Error' });
      expect(new Date(received!.event.occurredAt).getTime()).toBeGreaterThanOrEqual(
        new Date(session.expiresAt).getTime(),
      );
      expect(verifyWithStandardWebhooks(webhook.secret, received!)).toEqual(received!.event);
      expect(await events.waitFor(session.id, 'Error')).toEqual({ id: session.id, orgId: ORG, state: 'Error' });
      expect((await e.readSession(session.id)).error?.code).toBe('SESSION_EXPIRED');
      await new Promise((resolve) => setTimeout(resolve, 500));
      expect(events.of(session.id, 'Error')).toHaveLength(1);
      expect(receiver.of(session.id)).toHaveLength(1);
    } finally {
      await events.close();
    }
  });

  test('no event for a type the webhook does not subscribe to, nor for a verifier without a webhook', async ({
    e2e: e,
    api,
    desk,
    receiver,
    harness,
  }) => {
    await putWebhook(api, desk, { url: receiver.url(), events: ['presentation.verified'] });
    expect((await api('POST', `${oid4vpPath()}/verifier`, { verifierId: 'no-hook' })).status).toBe(201);
    const unsubscribed = await createDeskSession(e);
    await failSession(e, unsubscribed);
    const expiring = await createDeskSession(e, { expiresInSeconds: 1 });
    const other = await api('POST', `${oid4vpPath()}/presentation?verifierId=no-hook`, {
      dcql: sdJwtQuery(),
      responseMode: 'direct_post',
    });
    expect(other.status).toBe(201);
    await verifySession(e, other.body.data);
    // A subscribed event sent after these proves the worker ran past them.
    const marker = await createDeskSession(e);
    await verifySession(e, marker);
    await receiver.waitFor((entry) => entry.event.sessionId === marker.id);
    await new Promise((resolve) => setTimeout(resolve, 1500));
    // Expired by the sweeper (not by a read, whose outbox row could come after the checks below).
    const stored = await storedSession(harness.testDb.database, expiring.id);
    expect(stored).toMatchObject({ state: 'Error', errorCode: 'SESSION_EXPIRED' });
    expect(receiver.of(unsubscribed.id)).toEqual([]);
    expect(receiver.of(expiring.id)).toEqual([]);
    expect(receiver.of(other.body.data.id)).toEqual([]);
    const deliveries = await api('GET', `${webhookPath(desk)}/deliveries?pageSize=100`);
    expect(
      deliveries.body.data.data.map((delivery: { event: { sessionId: string } }) => delivery.event.sessionId),
    ).not.toContain(unsubscribed.id);
    expect((await api('GET', webhookPath('no-hook'))).status).toBe(404);
  });
});
