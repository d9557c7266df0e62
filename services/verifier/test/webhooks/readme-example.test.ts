import { describe, expect } from 'vitest';
// The receiver example the root README shows ("Integrating a relying party"), checked against real deliveries.
// @ts-expect-error: a plain .mjs example without type declarations
import { verifyWebhook } from '../../../../docs/examples/verify-webhook.mjs';
import { createDeskSession, putWebhook, verifySession, webhookTest } from './support.js';

const test = webhookTest();

describe("the README's webhook receiver example", () => {
  test('accepts a real delivery and refuses a changed body, another secret and a stale timestamp', async ({
    e2e: e,
    api,
    desk,
    receiver,
  }) => {
    const webhook = await putWebhook(api, desk, { url: receiver.url(), events: ['presentation.verified'] });
    const session = await createDeskSession(e);
    await verifySession(e, session);
    const [received] = await receiver.waitFor((entry) => entry.event.sessionId === session.id);
    const { headers, body } = received!;
    expect(verifyWebhook(headers, body, webhook.secret)).toBe(true);
    expect(verifyWebhook(headers, body.replace('ResponseVerified', 'Error'), webhook.secret)).toBe(false);
    expect(verifyWebhook(headers, body, `whsec_${Buffer.alloc(32, 7).toString('base64')}`)).toBe(false);
    expect(verifyWebhook(headers, body, webhook.secret, Date.now() + 10 * 60_000)).toBe(false);
    expect(verifyWebhook({ ...headers, 'webhook-id': 'another-id' }, body, webhook.secret)).toBe(false);
  });
});
