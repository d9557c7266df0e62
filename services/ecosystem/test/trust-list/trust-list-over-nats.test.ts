import { randomUUID } from 'node:crypto';
import { describe, expect } from 'vitest';
import { Value } from 'typebox/value';
import { ErrorCode, Subject, TrustListSnapshotSchema, trustListGetRpc } from '@tessera/contracts';
import { callService, type MessageBus } from '@tessera/service-kit';
import { createTestBusNamespace, missingServer } from '@tessera/service-kit/testing';
import { harnessTest } from '../support/fixtures.js';
import { advanceTrustListSequence } from '../support/trust-registry.js';
import { ORG } from '../support/world.js';

// `ecosystem.v1.trust-list.get` on a real NATS server, under a subject prefix of this
// file so other files' responders cannot answer. The app's clock is the test's.

const buses = createTestBusNamespace();
const now = new Date('2030-06-01T08:00:00.000Z');
const withClient = (test: ReturnType<typeof harnessTest>, namespace = buses) =>
  test.extend('client', { scope: 'file' }, async ({}, { onCleanup }): Promise<MessageBus> => {
    const client = await namespace.connect('trust-list-client');
    onCleanup(() => client.close());
    return client;
  });
const test = withClient(
  harnessTest(async () => ({
    bus: await buses.connect('ecosystem-under-test'),
    clock: () => now,
    env: { TRUST_LIST_VALIDITY_SECONDS: '7200' },
  })),
);

const get = (client: MessageBus, request: unknown) =>
  client.request(Subject.TRUST_LIST_GET, request) as Promise<{
    ok: boolean;
    data?: unknown;
    error?: { statusCode: number; code: string };
  }>;

describe.skipIf(missingServer('nats', 'the trust-list responder over NATS'))(
  'ecosystem.v1.trust-list.get over NATS',
  () => {
    test('answers the sequence, nextUpdate = now + validity and every entity; without entities when knownSequence is current', async ({
      client,
      world,
    }) => {
      const full = await callService(client, trustListGetRpc, { ecosystemId: world.ecosystemId });
      expect(full).toEqual({
        ecosystemId: world.ecosystemId,
        sequence: 0,
        nextUpdate: '2030-06-01T10:00:00.000Z',
        entities: [],
      });
      expect(Value.Check(TrustListSnapshotSchema, full)).toBe(true);
      const known = await callService(client, trustListGetRpc, { ecosystemId: world.ecosystemId, knownSequence: 0 });
      expect(known).toEqual({ ecosystemId: world.ecosystemId, sequence: 0, nextUpdate: '2030-06-01T10:00:00.000Z' });
    });

    test('an older knownSequence gets the entities again', async ({ harness: h, client, world }) => {
      await advanceTrustListSequence(h, world.ecosystemId);
      const reply = await callService(client, trustListGetRpc, { ecosystemId: world.ecosystemId, knownSequence: 0 });
      expect(reply).toMatchObject({ sequence: 1, entities: [] });
    });

    test('with orgId: the lead and active members are answered; invited, rejected, outsiders and unknown organisations 403 NOT_A_MEMBER', async ({
      client,
      world,
    }) => {
      for (const orgId of [ORG.lead, ORG.member])
        expect(await get(client, { ecosystemId: world.ecosystemId, orgId })).toMatchObject({ ok: true });
      for (const orgId of [ORG.invited, ORG.rejected, ORG.outsider, 'org-unknown']) {
        expect(await get(client, { ecosystemId: world.ecosystemId, orgId })).toMatchObject({
          ok: false,
          error: { statusCode: 403, code: ErrorCode.NOT_A_MEMBER },
        });
      }
    });

    test('an unknown ecosystem 404 ECOSYSTEM_NOT_FOUND (with or without orgId)', async ({ client }) => {
      for (const request of [{ ecosystemId: randomUUID() }, { ecosystemId: randomUUID(), orgId: ORG.lead }]) {
        expect(await get(client, request)).toMatchObject({
          ok: false,
          error: { statusCode: 404, code: ErrorCode.ECOSYSTEM_NOT_FOUND },
        });
      }
    });

    test('malformed requests 400 VALIDATION_FAILED', async ({ client, world }) => {
      for (const request of [
        {},
        { ecosystemId: 'not-a-uuid' },
        { ecosystemId: world.ecosystemId, knownSequence: -1 },
        { ecosystemId: world.ecosystemId, knownSequence: '3' },
        { ecosystemId: world.ecosystemId, extra: true },
        'text',
      ]) {
        expect(await get(client, request), JSON.stringify(request)).toMatchObject({
          ok: false,
          error: { statusCode: 400, code: ErrorCode.VALIDATION_FAILED },
        });
      }
    });
  },
);

// A namespace of its own: the enabled app above must not answer these requests.
const disabledBuses = createTestBusNamespace();
const disabledTest = withClient(
  harnessTest(async () => ({ bus: await disabledBuses.connect('ecosystem-disabled'), enabled: false })),
  disabledBuses,
);

describe.skipIf(missingServer('nats', 'the trust-list responder over NATS'))(
  'ecosystem.v1.trust-list.get with ECOSYSTEM_ENABLED=false',
  () => {
    disabledTest('answers 403 ECOSYSTEM_DISABLED', async ({ harness: _app, client }) => {
      expect(await get(client, { ecosystemId: randomUUID() })).toMatchObject({
        ok: false,
        error: { statusCode: 403, code: ErrorCode.ECOSYSTEM_DISABLED },
      });
    });
  },
);
