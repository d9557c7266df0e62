import { describe, expect } from 'vitest';
import type { CreatedPresentation, WebhookDelivery } from '@tessera/contracts';
import { captureLogger, createTestBusNamespace, missingServer, waitFor } from '@tessera/service-kit/testing';
import { generateKeyEncryptionKey } from '../../src/crypto/key-encryption.js';
import { createE2e } from '../support/e2e.js';
import { listenToSessionEvents } from '../support/events.js';
import { databaseTest } from '../support/fixtures.js';
import { createHarness, type Harness } from '../support/harness.js';
import { memberCall, oid4vpPath } from '../support/management.js';
import { startWebhookReceiver, verifyWithStandardWebhooks, type WebhookReceiver } from './receiver.js';
import { createDeskSession, failSession, putWebhook, webhookPath, WEBHOOK_TEST_CONFIG } from './support.js';

// Delivery state lives in PostgreSQL only: a delivery pending a retry survives the
// replica that made it, and replicas polling one outbox never send an event twice.
// Two verifier apps open the same database by URL (server PostgreSQL), with one
// KEY_ENCRYPTION_KEY (the webhook secret is sealed with it) and one bus namespace.
const test = databaseTest.extend('receiver', { scope: 'file' }, async ({}, { onCleanup }): Promise<WebhookReceiver> => {
  const receiver = await startWebhookReceiver();
  onCleanup(() => receiver.close());
  return receiver;
});

const keyEncryptionKey = generateKeyEncryptionKey();
const bus = createTestBusNamespace();

/** A replica on the test's database. */
const replica = (
  url: string,
  config: Record<string, string> = {},
  logger?: ReturnType<typeof captureLogger>['logger'],
) =>
  createHarness({
    databaseUrl: url,
    connectBus: bus.connect,
    config: { ...WEBHOOK_TEST_CONFIG, KEY_ENCRYPTION_KEY: keyEncryptionKey, ...config },
    ...(logger ? { logger } : {}),
  });

async function deliveryOf(h: Harness, verifierId: string, sessionId: string): Promise<WebhookDelivery | undefined> {
  const page = await memberCall(h)('GET', `${webhookPath(verifierId)}/deliveries?pageSize=100`);
  return (page.body.data.data as WebhookDelivery[]).find((delivery) => delivery.event.sessionId === sessionId);
}

describe.skipIf(missingServer('postgres', 'webhook deliveries across verifier restarts and replicas'))(
  'webhook durability',
  () => {
    test(
      'a delivery waiting for its retry when the verifier stops is completed by the next one on the same database',
      { timeout: 30_000 },
      async ({ testDb, receiver }) => {
        const first = await replica(testDb.url!, { WEBHOOK_RETRY_BASE_MS: '1500', WEBHOOK_RETRY_MAX_DELAY_MS: '1500' });
        const api = memberCall(first);
        expect((await api('POST', `${oid4vpPath()}/verifier`, { verifierId: 'desk' })).status).toBe(201);
        const webhook = await putWebhook(api, 'desk', { url: receiver.url(), events: ['presentation.failed'] });
        const e2e = await createE2e(first, 'desk');
        receiver.answerNext(500);
        const session = await createDeskSession(e2e);
        await failSession(e2e, session);
        await receiver.waitFor((entry) => entry.event.sessionId === session.id);
        await waitFor(
          async () => (await deliveryOf(first, 'desk', session.id))?.attempts.length === 1,
          5000,
          'the failed attempt recorded',
        );
        expect((await deliveryOf(first, 'desk', session.id))!.status).toBe('pending');
        // The verifier stops before the retry is due (1.5 s after the failure).
        await first.close();
        const stoppedAt = Date.now();
        await new Promise((resolve) => setTimeout(resolve, 300));
        expect(receiver.of(session.id)).toHaveLength(1);

        const second = await replica(testDb.url!, {
          WEBHOOK_RETRY_BASE_MS: '1500',
          WEBHOOK_RETRY_MAX_DELAY_MS: '1500',
        });
        try {
          const [, retried] = await receiver.waitFor((entry) => entry.event.sessionId === session.id, {
            count: 2,
            timeoutMs: 10_000,
          });
          expect(retried!.at - stoppedAt).toBeLessThan(5000);
          expect(retried!.headers['webhook-id']).toBe(receiver.of(session.id)[0]!.headers['webhook-id']);
          expect(verifyWithStandardWebhooks(webhook.secret, retried!)).toEqual(retried!.event);
          await waitFor(
            async () => (await deliveryOf(second, 'desk', session.id))?.status === 'delivered',
            5000,
            'the delivery completed by the new verifier',
          );
          expect((await deliveryOf(second, 'desk', session.id))!.attempts.map((attempt) => attempt.statusCode)).toEqual(
            [500, 200],
          );
        } finally {
          await second.close();
        }
      },
    );

    test(
      'two replicas polling one outbox deliver every event exactly once, and sweep each expired session once',
      { timeout: 60_000 },
      async ({ testDb, receiver }) => {
        const logsA = captureLogger('replica-a', 'info');
        const logsB = captureLogger('replica-b', 'info');
        // Two deliveries at a time per replica and a slow receiver, so each replica's deliveries take a
        // while; and room for four in flight to the one target (WEBHOOK_TARGET_CONCURRENCY), so one
        // replica's two cannot fill it: with the default cap of two, the replica that claimed first
        // takes the next delivery each time one of its own ends, and the other may never get one.
        const pairEnv = { WEBHOOK_CONCURRENCY: '2', WEBHOOK_TARGET_CONCURRENCY: '4' };
        const a = await replica(testDb.url!, pairEnv, logsA.logger);
        const b = await replica(testDb.url!, pairEnv, logsB.logger);
        const events = await listenToSessionEvents(bus.connect);
        try {
          receiver.delayAnswers(100);
          const api = memberCall(a);
          expect((await api('POST', `${oid4vpPath()}/verifier`, { verifierId: 'pair' })).status).toBe(201);
          await putWebhook(api, 'pair', {
            url: receiver.url(),
            events: ['presentation.failed', 'presentation.expired'],
          });
          const e2e = await createE2e(a, 'pair');
          const failed: CreatedPresentation[] = await Promise.all(
            Array.from({ length: 30 }, () => createDeskSession(e2e)),
          );
          const expiring: CreatedPresentation[] = await Promise.all(
            Array.from({ length: 10 }, () => createDeskSession(e2e, { expiresInSeconds: 1 })),
          );
          await Promise.all(failed.map((session) => failSession(e2e, session)));
          const ids = new Set([...failed, ...expiring].map((session) => session.id));
          await receiver.waitFor((entry) => ids.has(entry.event.sessionId), { count: ids.size, timeoutMs: 30_000 });
          // Time for any second send to show up.
          await new Promise((resolve) => setTimeout(resolve, 1500));
          const received = receiver.received.filter((entry) => ids.has(entry.event.sessionId));
          expect(received).toHaveLength(ids.size);
          expect(new Set(received.map((entry) => entry.headers['webhook-id'])).size).toBe(ids.size);
          expect(
            received
              .filter((entry) => entry.event.type === 'presentation.expired')
              .map((entry) => entry.event.sessionId)
              .sort(),
          ).toEqual(expiring.map((session) => session.id).sort());
          // Both replicas delivered some of them.
          const deliveredBy = (text: string) =>
            text.split('\n').filter((line) => line.includes('webhook delivered')).length;
          expect(deliveredBy(logsA.text())).toBeGreaterThan(0);
          expect(deliveredBy(logsB.text())).toBeGreaterThan(0);
          expect(deliveredBy(logsA.text()) + deliveredBy(logsB.text())).toBe(ids.size);
          // Each expired session changed state once: one event on NATS, whichever replica swept it.
          for (const session of expiring) expect(events.of(session.id, 'Error')).toHaveLength(1);
        } finally {
          await events.close();
          await a.close();
          await b.close();
        }
      },
    );
  },
);
