import { describe, expect } from 'vitest';
import { deleteWebhook } from '../../src/use-cases/delete-webhook.js';
import { deliverDueWebhooks } from '../../src/use-cases/deliver-due-webhooks.js';
import { getWebhook } from '../../src/use-cases/get-webhook.js';
import { listWebhookDeliveries } from '../../src/use-cases/list-webhook-deliveries.js';
import { putWebhook } from '../../src/use-cases/put-webhook.js';
import { redeliverWebhookDelivery } from '../../src/use-cases/redeliver-webhook-delivery.js';
import { rotateWebhookSecret } from '../../src/use-cases/rotate-webhook-secret.js';
import { createVerifier } from '../../src/use-cases/create-verifier.js';
import { createWebhookSender } from '../../src/webhooks/create-webhook-sender.js';
import { createWebhookDeliverySlots } from '../../src/state/webhook-delivery-slots.js';
import { ORG } from '../support/management.js';
import { useCaseTest, verifiedPidSession, type UseCaseWorld } from '../support/use-cases.js';
import { startWebhookReceiver, verifyWithStandardWebhooks } from '../webhooks/receiver.js';

// A verifier's webhook (VERIFIER.md, Webhooks; issue 14): put (its secret kept across
// changes), rotated, deleted; the worker delivers what a session's end wrote to the
// outbox, signed per Standard Webhooks, to a real HTTP receiver; a delivery can be
// sent again. The verifier `hooks` is this file's own.
const page = { page: 1, pageSize: 10, offset: 0 };
const HOOKS = { orgId: ORG, verifierId: 'hooks' };

const test = useCaseTest
  .extend('hooks', { scope: 'file' }, async ({ world }) => {
    await createVerifier(world.deps, HOOKS);
    return HOOKS;
  })
  .extend('receiver', { scope: 'file' }, async ({}, { onCleanup }) => {
    const receiver = await startWebhookReceiver();
    onCleanup(() => receiver.close());
    return receiver;
  });

/** One run of the webhook worker, with a real sender (plain http to loopback allowed here), until what it claimed is recorded. */
async function runWorker(world: UseCaseWorld): Promise<void> {
  const slots = createWebhookDeliverySlots({ size: 10, logger: world.deps.logger, onFree: () => undefined });
  await deliverDueWebhooks({
    ...world.deps,
    send: createWebhookSender({ denyPrivateAddresses: false, timeoutMs: 2000 }),
    retry: { baseMs: 100, maxDelayMs: 800, periodMs: 60_000 },
    claimMs: 62_000,
    slots,
    perTarget: 2,
    perOrganisation: 5,
  });
  await slots.idle();
}

/** A new webhook of `hooks` (any earlier one deleted), with the secret its creation shows once. */
async function makeWebhook(world: UseCaseWorld, hooks: typeof HOOKS, url: string): Promise<{ secret: string }> {
  await deleteWebhook(world.deps, hooks).catch(() => undefined);
  const made = await putWebhook(world.deps, {
    ...hooks,
    url,
    events: ['presentation.verified'],
    mayChangeTarget: true,
  });
  if (made.kind !== 'created') throw new Error('the webhook was not created');
  return made;
}

describe('webhook use cases', () => {
  test('put creates the webhook with a secret shown once; a second put changes its target, keeps the secret and does not show it', async ({
    world,
    hooks,
    receiver,
  }) => {
    const created = await putWebhook(world.deps, {
      ...hooks,
      url: receiver.url('/first'),
      events: ['presentation.verified'],
      mayChangeTarget: true,
    });
    expect(created.kind).toBe('created');
    if (created.kind !== 'created') return;
    expect(created.secret).toMatch(/^whsec_/);
    expect(created.webhook.encryptedSecret).not.toContain(created.secret.slice('whsec_'.length));
    const changed = await putWebhook(world.deps, {
      ...hooks,
      url: receiver.url('/hooks'),
      events: ['presentation.verified', 'presentation.failed'],
      mayChangeTarget: true,
    });
    expect(changed).toEqual({ kind: 'changed', verifier: created.verifier, webhook: expect.any(Object) });
    expect(changed.webhook.encryptedSecret).toBe(created.webhook.encryptedSecret);
    expect(await getWebhook(world.deps, hooks)).toMatchObject({
      webhook: {
        id: created.webhook.id,
        url: receiver.url('/hooks'),
        events: ['presentation.verified', 'presentation.failed'],
      },
    });
  });

  test('without the right to say where events go, put changes only the events of the same url', async ({
    world,
    hooks,
    receiver,
  }) => {
    await deleteWebhook(world.deps, hooks).catch(() => undefined);
    const events = ['presentation.verified'] as const;
    const forbiddenPut = { statusCode: 403, code: 'FORBIDDEN' };
    await expect(
      putWebhook(world.deps, { ...hooks, url: receiver.url('/hooks'), events: [...events], mayChangeTarget: false }),
    ).rejects.toMatchObject(forbiddenPut);
    await putWebhook(world.deps, { ...hooks, url: receiver.url('/hooks'), events: [...events], mayChangeTarget: true });
    await expect(
      putWebhook(world.deps, {
        ...hooks,
        url: receiver.url('/elsewhere'),
        events: [...events],
        mayChangeTarget: false,
      }),
    ).rejects.toMatchObject(forbiddenPut);
    expect(
      await putWebhook(world.deps, {
        ...hooks,
        url: receiver.url('/hooks'),
        events: ['presentation.failed'],
        mayChangeTarget: false,
      }),
    ).toMatchObject({ kind: 'changed', webhook: { url: receiver.url('/hooks'), events: ['presentation.failed'] } });
  });

  test('a URL the target policy refuses, or an unknown verifier, creates nothing', async ({ world, hooks }) => {
    const production = { ...world.deps, webhookTargets: { allowHttp: false, denyPrivateAddresses: true } };
    for (const url of ['http://rp.example/hooks', 'https://127.0.0.1/hooks'])
      await expect(
        putWebhook(production, {
          ...hooks,
          verifierId: 'no-hook-yet',
          url,
          events: ['presentation.verified'],
          mayChangeTarget: true,
        }),
      ).rejects.toMatchObject({ statusCode: 400, details: [{ path: '/url' }] });
    await expect(
      putWebhook(world.deps, {
        ...hooks,
        verifierId: 'no-such-verifier',
        url: 'https://rp.example',
        events: ['presentation.verified'],
        mayChangeTarget: true,
      }),
    ).rejects.toMatchObject({ statusCode: 404, code: 'VERIFIER_NOT_FOUND' });
  });

  test('a session’s end is delivered signed with the secret in force, and can be sent again', async ({
    world,
    hooks,
    receiver,
  }) => {
    const { secret } = await makeWebhook(world, hooks, receiver.url('/hooks'));
    const session = await verifiedPidSession(world, {}, hooks.verifierId);
    await runWorker(world);
    const [first] = await receiver.waitFor((received) => received.event.sessionId === session.id);
    expect(verifyWithStandardWebhooks(secret, first!)).toMatchObject({
      type: 'presentation.verified',
      sessionId: session.id,
    });
    const deliveries = await listWebhookDeliveries(world.deps, { ...hooks, page });
    const delivery = deliveries.rows.find((row) => row.sessionId === session.id)!;
    expect(delivery).toMatchObject({ status: 'delivered', attemptCount: 1 });

    const wakes = world.deps.wakes;
    const requeued = await redeliverWebhookDelivery(world.deps, { ...hooks, deliveryId: delivery.id });
    expect(requeued).toMatchObject({ id: delivery.id, status: 'pending' });
    expect(world.deps.wakes).toBe(wakes + 1);
    await runWorker(world);
    const both = await receiver.waitFor((received) => received.event.sessionId === session.id, { count: 2 });
    // The same event again: a receiver that has it can tell by its id.
    expect(both[1]!.headers['webhook-id']).toBe(both[0]!.headers['webhook-id']);
  });

  test('a rotated secret signs every delivery from then on; the old one verifies none', async ({
    world,
    hooks,
    receiver,
  }) => {
    const { secret: old } = await makeWebhook(world, hooks, receiver.url('/hooks'));
    const { secret } = await rotateWebhookSecret(world.deps, hooks);
    expect(secret).not.toBe(old);
    const session = await verifiedPidSession(world, {}, hooks.verifierId);
    await runWorker(world);
    const [received] = await receiver.waitFor((entry) => entry.event.sessionId === session.id);
    expect(verifyWithStandardWebhooks(secret, received!)).toMatchObject({ sessionId: session.id });
    expect(() => verifyWithStandardWebhooks(old, received!)).toThrow();
  });

  test('a deleted webhook is gone, and rotating or redelivering then finds nothing', async ({
    world,
    hooks,
    receiver,
  }) => {
    await makeWebhook(world, hooks, receiver.url('/hooks'));
    await deleteWebhook(world.deps, hooks);
    await expect(getWebhook(world.deps, hooks)).rejects.toMatchObject({ statusCode: 404, code: 'WEBHOOK_NOT_FOUND' });
    await expect(rotateWebhookSecret(world.deps, hooks)).rejects.toMatchObject({ statusCode: 404 });
    await expect(
      redeliverWebhookDelivery(world.deps, { ...hooks, deliveryId: '00000000-0000-4000-8000-000000000000' }),
    ).rejects.toMatchObject({ statusCode: 404 });
  });
});
