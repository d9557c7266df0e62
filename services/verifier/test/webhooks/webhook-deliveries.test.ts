import { describe, expect } from 'vitest';
import type { WebhookDelivery } from '@tessera/contracts';
import { captureLogger } from '@tessera/service-kit/testing';
import type { MemberCall } from '../support/management.js';
import { verifyWithStandardWebhooks, type ReceivedWebhook } from './receiver.js';
import { createDeskSession, failSession, putWebhook, verifySession, webhookPath, webhookTest } from './support.js';

// Retries, the deliveries list, redelivery and secret rotation, against a real
// receiver over HTTP. Timings from WEBHOOK_TEST_CONFIG: first retry after 100 ms,
// doubling, at most 800 ms apart; attempts time out after 500 ms. Everything the
// service logs is kept, to prove no secret reaches a log line.
const logs = captureLogger('verifier', 'trace');
const test = webhookTest({}, { logger: logs.logger });
const TOKEN = 'rp-receiver-token-7f3a';

const deliveriesOf = async (api: MemberCall, verifierId: string): Promise<WebhookDelivery[]> => {
  const page = await api('GET', `${webhookPath(verifierId)}/deliveries?pageSize=100`);
  expect(page.status).toBe(200);
  return page.body.data.data as WebhookDelivery[];
};

/** Waits until the delivery of `sessionId` reaches `status` in the list, and answers it. */
async function waitForDelivery(
  read: () => Promise<WebhookDelivery[]>,
  sessionId: string,
  status: WebhookDelivery['status'],
  timeoutMs = 10_000,
): Promise<WebhookDelivery> {
  const deadline = Date.now() + timeoutMs;
  let last: WebhookDelivery | undefined;
  while (Date.now() < deadline) {
    last = (await read()).find((delivery) => delivery.event.sessionId === sessionId);
    if (last?.status === status) return last;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`the delivery of ${sessionId} did not become ${status}: ${JSON.stringify(last)}`);
}

const gaps = (received: ReceivedWebhook[]) => received.slice(1).map((entry, index) => entry.at - received[index]!.at);

describe('webhook deliveries', () => {
  test('retries after 500s with doubling backoff, signs every attempt, records each, and stops at the first 2xx', async ({
    e2e: e,
    api,
    desk,
    receiver,
  }) => {
    const webhook = await putWebhook(api, desk, {
      url: receiver.url(`/hooks?token=${TOKEN}`),
      events: ['presentation.failed'],
    });
    receiver.answerNext(500, 500, 503);
    const session = await createDeskSession(e);
    await failSession(e, session);
    const received = await receiver.waitFor((entry) => entry.event.sessionId === session.id, { count: 4 });
    expect(received.map((entry) => entry.answered)).toEqual([500, 500, 503, 200]);
    // One event: the same id and the same bytes on every attempt, each signed afresh.
    expect(new Set(received.map((entry) => entry.headers['webhook-id'])).size).toBe(1);
    expect(new Set(received.map((entry) => entry.body)).size).toBe(1);
    for (const entry of received) expect(verifyWithStandardWebhooks(webhook.secret, entry)).toEqual(entry.event);
    // Backoff: 100 ms, then 200, then 400 (each stretched by at most 25 % jitter, plus polling).
    const [first, second, third] = gaps(received);
    expect(first).toBeGreaterThanOrEqual(95);
    expect(second).toBeGreaterThanOrEqual(195);
    expect(third).toBeGreaterThanOrEqual(395);
    expect(third!).toBeGreaterThan(first!);

    const delivery = await waitForDelivery(() => deliveriesOf(api, desk), session.id, 'delivered');
    expect(delivery).toMatchObject({
      id: received[0]!.event.id,
      event: received[0]!.event,
      status: 'delivered',
      attemptCount: 4,
      deliveredAt: expect.any(String),
    });
    expect(delivery.nextAttemptAt).toBeUndefined();
    expect(delivery.attempts.map((attempt) => [attempt.statusCode, attempt.succeeded])).toEqual([
      [500, false],
      [500, false],
      [503, false],
      [200, true],
    ]);
    for (const attempt of delivery.attempts) {
      expect(attempt.durationMs).toBeGreaterThanOrEqual(0);
      expect(attempt.durationMs).toBeLessThan(5000);
      expect(attempt.error).toBeUndefined();
    }
    expect(new Date(delivery.attempts[3]!.attemptedAt).getTime()).toBeGreaterThan(
      new Date(delivery.attempts[0]!.attemptedAt).getTime(),
    );
    await new Promise((resolve) => setTimeout(resolve, 400));
    expect(receiver.of(session.id)).toHaveLength(4);
  });

  test('retries after a timeout and after a redirect (never followed), recording the error or status', async ({
    e2e: e,
    api,
    desk,
    receiver,
  }) => {
    await putWebhook(api, desk, { url: receiver.url(), events: ['presentation.failed'] });
    receiver.answerNext('hang', 302);
    const session = await createDeskSession(e);
    await failSession(e, session);
    const received = await receiver.waitFor((entry) => entry.event.sessionId === session.id, { count: 3 });
    expect(received.map((entry) => entry.answered)).toEqual(['hang', 302, 200]);
    // The hung attempt lasted its timeout before the retry's backoff began.
    expect(gaps(received)[0]).toBeGreaterThanOrEqual(500 + 95);
    const delivery = await waitForDelivery(() => deliveriesOf(api, desk), session.id, 'delivered');
    expect(delivery.attempts).toHaveLength(3);
    expect(delivery.attempts[0]).toMatchObject({ succeeded: false, error: 'timed out after 500 ms' });
    expect(delivery.attempts[0]!.statusCode).toBeUndefined();
    expect(delivery.attempts[0]!.durationMs).toBeGreaterThanOrEqual(480);
    expect(delivery.attempts[1]).toMatchObject({ succeeded: false, statusCode: 302 });
    expect(delivery.attempts[2]).toMatchObject({ succeeded: true, statusCode: 200 });
  });

  test('a connection refused is a recorded network error, retried', async ({ e2e: e, api, desk, receiver }) => {
    // Port 9 (discard) on loopback: nothing listens there.
    await putWebhook(api, desk, { url: 'http://127.0.0.1:9/hooks', events: ['presentation.failed'] });
    const session = await createDeskSession(e);
    await failSession(e, session);
    const deadline = Date.now() + 5000;
    let delivery: WebhookDelivery | undefined;
    while (Date.now() < deadline && (delivery?.attempts.length ?? 0) < 2) {
      delivery = (await deliveriesOf(api, desk)).find((entry) => entry.event.sessionId === session.id);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect(delivery!.status).toBe('pending');
    expect(delivery!.nextAttemptAt).toEqual(expect.any(String));
    // A fixed sentence, not the socket's message (which names the address and port).
    expect(delivery!.attempts[0]).toMatchObject({ succeeded: false, error: 'connection refused' });
    expect(delivery!.attempts[0]!.statusCode).toBeUndefined();
    // Pointing the webhook at the receiver: the pending retry goes there (the URL is read at each attempt).
    const moved = await api(
      'PUT',
      webhookPath(desk),
      { url: receiver.url(), events: ['presentation.failed'] },
      { roles: ['admin'] },
    );
    expect(moved.status).toBe(200);
    await receiver.waitFor((entry) => entry.event.sessionId === session.id);
    await waitForDelivery(() => deliveriesOf(api, desk), session.id, 'delivered');
  });

  test('lists deliveries newest first, pages them, and redelivers one with the same event id', async ({
    e2e: e,
    api,
    desk,
    receiver,
  }) => {
    const webhook = await putWebhook(api, desk, {
      url: receiver.url(),
      events: ['presentation.verified', 'presentation.failed'],
    });
    const older = await createDeskSession(e);
    await failSession(e, older);
    await receiver.waitFor((entry) => entry.event.sessionId === older.id);
    const newer = await createDeskSession(e);
    await verifySession(e, newer);
    await receiver.waitFor((entry) => entry.event.sessionId === newer.id);
    await waitForDelivery(() => deliveriesOf(api, desk), newer.id, 'delivered');

    const [first, second] = await deliveriesOf(api, desk);
    expect(first!.event).toMatchObject({ sessionId: newer.id, type: 'presentation.verified' });
    expect(second!.event).toMatchObject({ sessionId: older.id, type: 'presentation.failed' });
    const paged = await api('GET', `${webhookPath(desk)}/deliveries?pageSize=1&pageNumber=2`);
    expect(paged.body.data).toMatchObject({ page: 2, pageSize: 1, data: [{ id: second!.id }] });
    expect(paged.body.data.totalItems).toBeGreaterThanOrEqual(2);

    const redelivered = await api('POST', `${webhookPath(desk)}/deliveries/${second!.id}/redeliver`);
    expect(redelivered.status).toBe(200);
    expect(redelivered.body.data).toMatchObject({
      id: second!.id,
      status: 'pending',
      nextAttemptAt: expect.any(String),
      attemptCount: 1,
    });
    const [original, again] = await receiver.waitFor((entry) => entry.event.sessionId === older.id, { count: 2 });
    expect(again!.headers['webhook-id']).toBe(original!.headers['webhook-id']);
    expect(again!.body).toBe(original!.body);
    expect(verifyWithStandardWebhooks(webhook.secret, again!)).toEqual(original!.event);
    const after = await waitForDelivery(
      async () => (await deliveriesOf(api, desk)).filter((delivery) => delivery.attemptCount === 2),
      older.id,
      'delivered',
    );
    expect(after.attempts.map((attempt) => attempt.succeeded)).toEqual([true, true]);
  });

  test('after rotate-secret the old secret no longer verifies anything sent, the new one does', async ({
    e2e: e,
    api,
    desk,
    receiver,
  }) => {
    const before = await putWebhook(api, desk, { url: receiver.url(), events: ['presentation.failed'] });
    const rotated = await api('POST', `${webhookPath(desk)}/rotate-secret`);
    expect(rotated.status).toBe(200);
    const secret = rotated.body.data.secret as string;
    expect(secret).not.toBe(before.secret);
    const session = await createDeskSession(e);
    await failSession(e, session);
    const [received] = await receiver.waitFor((entry) => entry.event.sessionId === session.id);
    expect(verifyWithStandardWebhooks(secret, received!)).toEqual(received!.event);
    expect(() => verifyWithStandardWebhooks(before.secret, received!)).toThrow();
  });

  test('no secret, signature or receiver token reaches the logs', async ({ e2e: e, api, desk, receiver }) => {
    const webhook = await putWebhook(api, desk, {
      url: receiver.url(`/hooks?token=${TOKEN}`),
      events: ['presentation.failed'],
    });
    receiver.answerNext(500);
    const session = await createDeskSession(e);
    await failSession(e, session);
    const received = await receiver.waitFor((entry) => entry.event.sessionId === session.id, { count: 2 });
    const text = logs.text();
    // The log does tell what happened: the attempts, with the target's origin.
    expect(text).toMatch(/webhook attempt failed; retrying/);
    expect(text).toMatch(/webhook delivered/);
    expect(text).toContain(receiver.origin);
    for (const secret of [
      webhook.secret,
      webhook.secret.slice('whsec_'.length),
      TOKEN,
      ...received.map((entry) => String(entry.headers['webhook-signature']).slice(3)),
    ]) {
      expect(text).not.toContain(secret);
    }
  });
});
