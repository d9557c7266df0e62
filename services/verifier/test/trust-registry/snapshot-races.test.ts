import { describe, expect, test } from 'vitest';
import {
  trustListChangedEvent,
  trustListGetRpc,
  type TrustListGetRequest,
  type TrustListSnapshot,
} from '@tessera/contracts';
import { publishEvent, serveRequests, type MessageBus } from '@tessera/service-kit';
import { createTestBusNamespace, silentLogger } from '@tessera/service-kit/testing';
import { subscribeTrustListChanges } from '../../src/bus/trust-list-changed-subscriber.js';
import { TrustListSnapshots } from '../../src/state/trust-list-snapshots.js';
import { createVerificationCache } from '../../src/state/verification-cache.js';
import { createRegistryIssuer, entity, eventually } from './support.js';

// The snapshot holder against a responder that reads the list when a request
// arrives and answers it later (as a busy ecosystem replica would): a change
// committed while a fetch is in flight must not be lost to that fetch's older answer.
const ECOSYSTEM = '7d0f7c3e-2a51-4f7e-9a53-0d6b5f1c2e11';

/** The snapshots as `buildApp` runs them: their periodic refresh, and the change events the bus adapter hands them. */
function startSnapshots(bus: MessageBus, snapshots: TrustListSnapshots): () => void {
  const stopRefresh = snapshots.start();
  const stopEvents = subscribeTrustListChanges(bus, {
    logger: silentLogger(),
    onChanged: (event) => snapshots.announce(event),
  });
  return () => {
    stopEvents();
    stopRefresh();
  };
}

describe('trust list snapshots under concurrent change', () => {
  test('an event announcing a newer sequence during an in-flight fetch makes the fetch ask again, without waiting for the periodic refresh', async () => {
    const namespace = createTestBusNamespace();
    const verifierBus = await namespace.connect('verifier');
    const ecosystemBus = await namespace.connect('ecosystem');
    const issuer = await createRegistryIssuer('Raced Issuer');
    const state = { sequence: 1, entities: [entity({ name: 'Raced Issuer', certificates: [issuer.ca] })] };
    const received: TrustListGetRequest[] = [];
    let delayMs = 0;
    const stop = serveRequests(ecosystemBus, trustListGetRpc, {
      logger: silentLogger(),
      handler: async (request): Promise<TrustListSnapshot> => {
        received.push(request);
        const read = { sequence: state.sequence, entities: structuredClone(state.entities) };
        if (delayMs > 0) await new Promise((resolve) => setTimeout(resolve, delayMs));
        return {
          ecosystemId: ECOSYSTEM,
          sequence: read.sequence,
          nextUpdate: new Date(Date.now() + 3_600_000).toISOString(),
          ...(request.knownSequence === read.sequence ? {} : { entities: read.entities }),
        };
      },
    });
    await ecosystemBus.ping();
    const snapshots = new TrustListSnapshots({
      bus: verifierBus,
      clock: () => new Date(),
      logger: silentLogger(),
      cache: createVerificationCache(),
      timeoutMs: 2000,
      refreshMs: 3_600_000,
    });
    const stopSnapshots = startSnapshots(verifierBus, snapshots);
    try {
      expect((await snapshots.current(ECOSYSTEM)).sequence).toBe(1);
      // The first need fetched once.
      expect(received).toHaveLength(1);

      delayMs = 300;
      const refresh = snapshots.follow([ECOSYSTEM]);
      await eventually(() => received.length === 2, 2000, 'the refresh reached the ecosystem');
      // The change commits after the refresh read the list, and its event arrives while the refresh is in flight.
      state.sequence = 2;
      state.entities = state.entities.map((listed) => ({ ...listed, status: 'suspended' as const }));
      publishEvent(ecosystemBus, trustListChangedEvent, { ecosystemId: ECOSYSTEM, sequence: 2 });
      await refresh;
      await eventually(() => snapshots.sequences().get(ECOSYSTEM) === 2, 2000, 'the newer list is held');
      const held = await snapshots.current(ECOSYSTEM);
      expect(held.entities[0]!.status).toBe('suspended');
      expect(held.trust().certificates).toHaveLength(0);
      // The refresh and the event shared one fetch, which asked again once: three requests in all.
      expect(received).toHaveLength(3);
      expect(received[2]).toEqual({ ecosystemId: ECOSYSTEM, knownSequence: 1 });
    } finally {
      stopSnapshots();
      stop();
      await verifierBus.close();
      await ecosystemBus.close();
    }
  });

  test('an older answer never replaces a newer snapshot, and an event for an ecosystem not followed fetches nothing', async () => {
    const namespace = createTestBusNamespace();
    const verifierBus = await namespace.connect('verifier');
    const ecosystemBus = await namespace.connect('ecosystem');
    const issuer = await createRegistryIssuer('Ordered Issuer');
    const answers: number[] = [5, 4];
    const received: TrustListGetRequest[] = [];
    const stop = serveRequests(ecosystemBus, trustListGetRpc, {
      logger: silentLogger(),
      handler: async (request): Promise<TrustListSnapshot> => {
        received.push(request);
        const sequence = answers.shift() ?? 5;
        return {
          ecosystemId: request.ecosystemId,
          sequence,
          nextUpdate: new Date(Date.now() + 3_600_000).toISOString(),
          entities: [entity({ name: `Issuer at ${sequence}`, certificates: [issuer.ca] })],
        };
      },
    });
    await ecosystemBus.ping();
    const snapshots = new TrustListSnapshots({
      bus: verifierBus,
      clock: () => new Date(),
      logger: silentLogger(),
      cache: createVerificationCache(),
      timeoutMs: 2000,
      refreshMs: 3_600_000,
    });
    const stopSnapshots = startSnapshots(verifierBus, snapshots);
    try {
      expect((await snapshots.current(ECOSYSTEM)).sequence).toBe(5);
      await snapshots.follow([ECOSYSTEM]);
      expect((await snapshots.current(ECOSYSTEM)).entities[0]!.name).toBe('Issuer at 5');
      publishEvent(ecosystemBus, trustListChangedEvent, {
        ecosystemId: '11111111-2222-4333-8444-555555555555',
        sequence: 9,
      });
      await ecosystemBus.ping();
      await verifierBus.ping();
      expect(received.map((request) => request.ecosystemId)).toEqual([ECOSYSTEM, ECOSYSTEM]);
    } finally {
      stopSnapshots();
      stop();
      await verifierBus.close();
      await ecosystemBus.close();
    }
  });
});
