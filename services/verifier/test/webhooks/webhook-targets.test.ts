import { describe, expect, test as base } from 'vitest';
import type { WebhookDelivery } from '@tessera/contracts';
import { waitFor } from '@tessera/service-kit/testing';
import { e2eFixture, type E2eSetting } from '../support/fixtures.js';
import { startWebhookReceiver, type WebhookReceiver } from './receiver.js';
import { createDeskSession, failSession, webhookPath, WEBHOOK_TEST_CONFIG } from './support.js';

// Where webhooks may go, and when they stop. `strict` runs with the deployed
// defaults (NODE_ENV=test, as production: https only, non-public addresses
// refused); `loopbackRefused` takes http but refuses loopback, so a receiver on
// 127.0.0.1 shows that nothing reaches it; `shortPeriod` retries for one second.
const { WEBHOOK_ALLOW_HTTP: _http, WEBHOOK_DENY_PRIVATE_ADDRESSES: _deny, ...TIMINGS } = WEBHOOK_TEST_CONFIG;
const test = base
  .extend('receiver', { scope: 'file' }, async ({}, { onCleanup }): Promise<WebhookReceiver> => {
    const receiver = await startWebhookReceiver();
    onCleanup(() => receiver.close());
    return receiver;
  })
  .extend('strict', { scope: 'file' }, e2eFixture({ config: TIMINGS }))
  .extend(
    'loopbackRefused',
    { scope: 'file' },
    e2eFixture({ config: { ...TIMINGS, WEBHOOK_ALLOW_HTTP: 'true', WEBHOOK_DENY_PRIVATE_ADDRESSES: 'true' } }),
  )
  .extend(
    'shortPeriod',
    { scope: 'file' },
    e2eFixture({
      config: {
        ...WEBHOOK_TEST_CONFIG,
        WEBHOOK_RETRY_PERIOD_MS: '1000',
        WEBHOOK_RETRY_BASE_MS: '100',
        WEBHOOK_RETRY_MAX_DELAY_MS: '200',
      },
    }),
  );

const DESK = 'desk';

async function deliveryOf(setting: E2eSetting, sessionId: string): Promise<WebhookDelivery | undefined> {
  const page = await setting.api('GET', `${webhookPath(DESK)}/deliveries?pageSize=100`);
  return (page.body.data.data as WebhookDelivery[]).find((delivery) => delivery.event.sessionId === sessionId);
}

describe('webhook targets', () => {
  test('the deployed defaults take https only, and no IP literal outside global unicast', async ({ strict }) => {
    const put = (url: string) =>
      strict.api('PUT', webhookPath(DESK), { url, events: ['presentation.failed'] }, { roles: ['admin'] });
    for (const [url, message] of [
      ['http://rp.example/hooks', /https/],
      ['https://127.0.0.1/hooks', /loopback/],
      ['https://[::1]/hooks', /loopback/],
      ['https://10.1.2.3/hooks', /private/],
      ['https://169.254.169.254/latest/meta-data', /linkLocal/],
      ['https://100.64.0.1/', /carrierGradeNat/],
      ['https://[::ffff:192.168.0.1]/', /private/],
      ['https://203.0.113.10/', /reserved/],
    ] as const) {
      const refused = await put(url);
      expect(refused.status, url).toBe(400);
      expect(refused.body.code).toBe('VALIDATION_FAILED');
      expect(refused.body.details).toEqual([{ path: '/url', message: expect.stringMatching(message) }]);
    }
    expect((await strict.api('GET', webhookPath(DESK))).status).toBe(404);
    expect((await put('https://8.8.8.8/hooks')).status).toBe(201);
    expect((await put('https://rp.example/hooks')).status).toBe(200);
  });

  test('a host name that resolves to loopback is refused when the attempt connects: nothing reaches the receiver', async ({
    strict,
    loopbackRefused,
    receiver,
  }) => {
    for (const [setting, url] of [
      [strict, `https://localhost:${new URL(receiver.origin).port}/hooks`],
      [loopbackRefused, `http://localhost:${new URL(receiver.origin).port}/hooks`],
    ] as const) {
      await setting.api('DELETE', webhookPath(DESK), undefined, { roles: ['admin'] });
      const saved = await setting.api(
        'PUT',
        webhookPath(DESK),
        { url, events: ['presentation.failed'] },
        { roles: ['admin'] },
      );
      expect(saved.status).toBe(201);
      const session = await createDeskSession(setting.e2e);
      await failSession(setting.e2e, session);
      await waitFor(
        async () => ((await deliveryOf(setting, session.id))?.attempts.length ?? 0) >= 2,
        5000,
        'two refused attempts',
      );
      const delivery = (await deliveryOf(setting, session.id))!;
      expect(delivery.status).toBe('pending');
      for (const attempt of delivery.attempts) {
        // No address, no range (issue 28, item 3).
        expect(attempt).toMatchObject({ succeeded: false, error: 'refused: the address is not public' });
        expect(attempt.statusCode).toBeUndefined();
      }
      expect(receiver.of(session.id)).toEqual([]);
    }
  });

  test('a delivery that keeps failing is retried for the retry period, then marked failed and sent no more', async ({
    shortPeriod,
    receiver,
  }) => {
    receiver.answerNext(...Array.from({ length: 100 }, () => 500));
    expect(
      (
        await shortPeriod.api(
          'PUT',
          webhookPath(DESK),
          { url: receiver.url(), events: ['presentation.failed'] },
          { roles: ['admin'] },
        )
      ).status,
    ).toBe(201);
    const session = await createDeskSession(shortPeriod.e2e);
    await failSession(shortPeriod.e2e, session);
    await waitFor(
      async () => (await deliveryOf(shortPeriod, session.id))?.status === 'failed',
      8000,
      'the delivery given up',
    );
    const delivery = (await deliveryOf(shortPeriod, session.id))!;
    expect(delivery.nextAttemptAt).toBeUndefined();
    expect(delivery.attempts.every((attempt) => attempt.statusCode === 500 && !attempt.succeeded)).toBe(true);
    // Retried for at least the period: the last attempt ended a second or more after the event.
    const lastAttempt = delivery.attempts.at(-1)!;
    expect(new Date(lastAttempt.attemptedAt).getTime() + lastAttempt.durationMs).toBeGreaterThanOrEqual(
      new Date(delivery.createdAt).getTime() + 1000,
    );
    expect(delivery.attempts.length).toBeGreaterThanOrEqual(5);
    const sent = receiver.of(session.id).length;
    expect(sent).toBe(delivery.attemptCount);
    await new Promise((resolve) => setTimeout(resolve, 600));
    expect(receiver.of(session.id)).toHaveLength(sent);

    // A redelivery starts a new retry period: sent again, and delivered this time.
    receiver.clearAnswers();
    const redelivered = await shortPeriod.api('POST', `${webhookPath(DESK)}/deliveries/${delivery.id}/redeliver`);
    expect(redelivered.status).toBe(200);
    expect(redelivered.body.data.status).toBe('pending');
    await waitFor(
      async () => (await deliveryOf(shortPeriod, session.id))?.status === 'delivered',
      5000,
      'the redelivery',
    );
    expect(receiver.of(session.id).at(-1)!.answered).toBe(200);
  });
});
