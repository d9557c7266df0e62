import { describe, expect } from 'vitest';
import { trustListChangedEvent, type TrustListChangedEvent } from '@tessera/contracts';
import { subscribeEvents, type MessageBus } from '@tessera/service-kit';
import {
  captureLogger,
  createTestBusNamespace,
  missingServer,
  NamespacedBus,
  silentLogger,
  waitFor,
} from '@tessera/service-kit/testing';
import { makeCa } from '../support/certificates.js';
import { harnessTest } from '../support/fixtures.js';
import { expectStatus } from '../support/responses.js';
import { entitiesPath, issuerBody, registerEntity, sequenceOf } from '../support/trust-registry.js';

// The app and a listener on a real NATS server, under a subject prefix of their own.
const buses = createTestBusNamespace();

interface Received {
  event: TrustListChangedEvent;
  /** The sequence committed in the database when the event arrived. */
  committed: number;
}

const test = harnessTest(async () => ({ bus: await buses.connect('ecosystem-under-test') })).extend(
  'received',
  { scope: 'file' },
  async ({ harness: h }, { onCleanup }) => {
    const listener = await buses.connect('trust-list-listener');
    const received: Received[] = [];
    const stop = subscribeEvents(listener, trustListChangedEvent, {
      logger: silentLogger(),
      handler: async (event) => {
        received.push({ event, committed: await sequenceOf(h, event.ecosystemId) });
      },
    });
    onCleanup(async () => {
      stop();
      await listener.close();
    });
    return received;
  },
);

describe.skipIf(missingServer('nats', 'trust-list change events over NATS'))('trust-list change events', () => {
  test('every registry change publishes { ecosystemId, sequence } after its commit; no-ops, policy and visibility publish nothing', async ({
    harness: h,
    world,
    received,
  }) => {
    const start = await sequenceOf(h, world.ecosystemId);
    const entity = await registerEntity(h, world, issuerBody([(await makeCa('Event CA')).pem], { name: 'Eventful' }));
    const status = (s: string) =>
      h.call('POST', entitiesPath(world, `/${entity.id}/status`), {
        token: world.tokens.lead,
        body: { status: s, reason: 'event test' },
      });
    expectStatus(await status('suspended'), 200);
    expectStatus(await status('suspended'), 200); // no change
    expectStatus(
      await h.call('PUT', `/v1/ecosystem/${world.ecosystemId}/trust-policy`, {
        token: world.tokens.lead,
        body: { policy: 'ecosystem' },
      }),
      200,
    );
    expectStatus(
      await h.call('PUT', `/v1/ecosystem/${world.ecosystemId}/trust-list/visibility`, {
        token: world.tokens.lead,
        body: { public: true },
      }),
      200,
    );
    expectStatus(
      await h.call('PATCH', entitiesPath(world, `/${entity.id}`), {
        token: world.tokens.lead,
        body: { name: 'Eventful' },
      }),
      200,
    ); // no change
    expectStatus(
      await h.call('PATCH', entitiesPath(world, `/${entity.id}`), {
        token: world.tokens.lead,
        body: { name: 'Renamed' },
      }),
      200,
    );
    const added = await h.call('POST', entitiesPath(world, `/${entity.id}/certificates`), {
      token: world.tokens.lead,
      body: { certificates: [{ pem: (await makeCa('Event CA 2')).pem }] },
    });
    expectStatus(added, 201);
    expectStatus(
      await h.call('DELETE', entitiesPath(world, `/${entity.id}/certificates/${entity.certificates[0]!.id}`), {
        token: world.tokens.lead,
      }),
      200,
    );
    expectStatus(await status('withdrawn'), 200);

    const expected = [1, 2, 3, 4, 5, 6].map((n) => start + n);
    await waitFor(async () => received.length >= expected.length, 5000, 'six change events');
    // Give a stray event (from a no-op or a setting) time to arrive before asserting there is none.
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(received.map((r) => r.event)).toEqual(
      expected.map((sequence) => ({ ecosystemId: world.ecosystemId, sequence })),
    );
    // Each event arrived when its sequence was already committed (published after commit).
    for (const r of received) expect(r.committed).toBeGreaterThanOrEqual(r.event.sequence);
    expect(await sequenceOf(h, world.ecosystemId)).toBe(start + 6);
  });
});

/** A bus that cannot publish: the change must still be answered and committed. */
class UnpublishableBus extends NamespacedBus {
  override publish(): void {
    throw new Error('NATS connection closed');
  }
}

const capture = captureLogger('ecosystem', 'warn');
const failing = harnessTest(async () => {
  const inner: MessageBus = await buses.connect('ecosystem-cannot-publish');
  return { bus: new UnpublishableBus(inner, 'unused'), logger: capture.logger };
});

describe('trust-list change events when publishing fails', () => {
  failing(
    'the change is committed and answered, the failure is logged (readers poll)',
    async ({ harness: h, world }) => {
      const before = await sequenceOf(h, world.ecosystemId);
      const entity = await registerEntity(
        h,
        world,
        issuerBody([(await makeCa('Quiet CA')).pem], { name: 'Unannounced' }),
      );
      expectStatus(
        await h.call('POST', entitiesPath(world, `/${entity.id}/status`), {
          token: world.tokens.lead,
          body: { status: 'suspended', reason: 'quiet' },
        }),
        200,
      );
      expect(await sequenceOf(h, world.ecosystemId)).toBe(before + 2);
      expect(capture.text()).toContain('trust-list change event not published');
    },
  );
});
