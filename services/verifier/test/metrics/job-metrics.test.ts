import { describe, expect } from 'vitest';
import { createServiceMetrics } from '@tessera/service-kit';
import { metricSample, waitFor } from '@tessera/service-kit/testing';
import { createDeskSession, putWebhook, verifySession, webhookTest } from '../webhooks/support.js';

// The background work's series: webhook attempts by result and sessions the sweeper expired.
const metrics = createServiceMetrics({ service: 'verifier' });
const test = webhookTest({}, { metrics });
const sample = async (name: string, labels: Record<string, string> = {}) =>
  metricSample(await metrics.registry.metrics(), name, { service: 'verifier', ...labels }) ?? 0;

describe('verifier job metrics', () => {
  test('count webhook attempts by result and the sessions the expiry sweeper expired', async ({
    e2e: e,
    api,
    desk,
    receiver,
  }) => {
    await putWebhook(api, desk, { url: receiver.url(), events: ['presentation.verified', 'presentation.expired'] });
    const verified = await createDeskSession(e);
    await verifySession(e, verified);
    await receiver.waitFor((entry) => entry.event.sessionId === verified.id);
    // Nobody reads this one: the sweeper expires it and its webhook event goes out too.
    const expiring = await createDeskSession(e, { expiresInSeconds: 1 });
    await receiver.waitFor((entry) => entry.event.sessionId === expiring.id, { timeoutMs: 5000 });
    await waitFor(
      async () => (await sample('tessera_verifier_webhook_deliveries_total', { result: 'delivered' })) >= 2,
      5000,
      'two deliveries counted',
    );
    expect(await sample('tessera_verifier_webhook_deliveries_total', { result: 'failed' })).toBe(0);
    expect(await sample('tessera_verifier_sessions_expired_total')).toBeGreaterThanOrEqual(1);
    expect(await sample('tessera_verifier_presentations_total', { format: 'dc+sd-jwt', outcome: 'verified' })).toBe(1);
  });
});
