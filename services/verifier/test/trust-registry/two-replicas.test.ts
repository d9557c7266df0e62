import { describe, expect } from 'vitest';
import { createTestBusNamespace, missingServer } from '@tessera/service-kit/testing';
import { generateKeyEncryptionKey } from '../../src/crypto/key-encryption.js';
import { createVerificationCache } from '../../src/state/verification-cache.js';
import { expectVerified } from '../support/crafted-answers.js';
import { sdJwtQuery } from '../support/dcql-queries.js';
import { createE2e, type E2e } from '../support/e2e.js';
import { databaseTest, harnessFixture } from '../support/fixtures.js';
import { createHarness, type Harness } from '../support/harness.js';
import { memberCall, ORG, oid4vpPath } from '../support/management.js';
import { answerAs, createRegistryIssuer, entity, eventually, prepareAnswer, stubEcosystemFixture } from './support.js';

// Two verifier replicas (two apps, each with its own snapshots and verification cache)
// on one database and the run's NATS server, and the stub ecosystem on a third
// connection. A suspension is committed (the stub's data changes), then its event is
// published; from that moment the time until BOTH replicas refuse the issuer is
// measured with answers prepared beforehand (so the wallet's own work is not timed),
// and must stay under one second (issue 13).
const keyEncryptionKey = generateKeyEncryptionKey();
const cacheOfB = createVerificationCache();
const namespace = createTestBusNamespace();
type Hooks = { onCleanup(cleanup: () => Promise<void> | void): void };
const replica =
  (verificationCache?: ReturnType<typeof createVerificationCache>) =>
  ({ testDb }: { testDb: { url?: string } }, hooks: Hooks) =>
    harnessFixture({
      databaseUrl: testDb.url!,
      connectBus: namespace.connect,
      config: { KEY_ENCRYPTION_KEY: keyEncryptionKey },
      ...(verificationCache ? { verificationCache } : {}),
    })({}, hooks);

const test = databaseTest
  .extend('replicaA', { scope: 'file' }, replica())
  .extend('replicaB', { scope: 'file' }, replica(cacheOfB))
  .extend(
    'ecosystem',
    { scope: 'file' },
    stubEcosystemFixture(() => namespace.connect('ecosystem-stub')),
  )
  .extend('settings', { scope: 'file' }, async ({ replicaA, replicaB }): Promise<{ a: E2e; b: E2e }> => {
    expect((await memberCall(replicaA)('POST', `${oid4vpPath()}/verifier`, { verifierId: 'desk' })).status).toBe(201);
    return { a: await createE2e(replicaA, 'desk'), b: await createE2e(replicaB, 'desk') };
  });

const PROPAGATION_BOUND_MS = 1000;

describe.skipIf(missingServer('postgres', 'two verifier replicas on one database'))(
  'trust list changes across replicas',
  () => {
    test('a suspension is refused by both replicas within one second of the change, though B had the issuer’s chain cached', async ({
      replicaA,
      replicaB,
      settings: { a, b },
      ecosystem,
    }) => {
      const issuer = await createRegistryIssuer('Replicated Issuer');
      const listed = entity({ name: 'Replicated Issuer', certificates: [issuer.ca] });
      const list = ecosystem.add({ entities: [listed], members: new Set([ORG]) });
      const session = (e: E2e) =>
        e.createSession({
          dcql: sdJwtQuery(),
          responseMode: 'direct_post',
          ecosystemId: list.ecosystemId,
          expiresInSeconds: 3600,
        });

      // Both replicas hold the list and have verified the issuer (B twice: its chain is in B's cache).
      for (const e of [a, b, b]) {
        const s = await session(e);
        await expectVerified(e, s, await answerAs(e, s, issuer));
      }
      expect(cacheOfB.chains.size).toBeGreaterThan(0);
      expect(replicaA.trustLists.sequences().get(list.ecosystemId)).toBe(1);
      expect(replicaB.trustLists.sequences().get(list.ecosystemId)).toBe(1);

      // Answers ready to send, sessions created while the issuer is active.
      const prepared = async (e: E2e) =>
        Promise.all(Array.from({ length: 8 }, async () => prepareAnswer(e, await session(e), issuer)));
      const ready = { a: await prepared(a), b: await prepared(b) };

      const committed = Date.now();
      ecosystem.setStatus(list, listed.id, 'suspended');
      const refusedAfter = await Promise.all(
        (['a', 'b'] as const).map(async (name) => {
          for (const submit of ready[name]) {
            const answered = await submit();
            if (answered.status === 400) {
              expect(answered.body.error_description).toMatch(/not trusted/);
              return Date.now() - committed;
            }
            expect(answered.status).toBe(200);
          }
          throw new Error(`replica ${name} still accepted the suspended issuer after ${ready[name].length} answers`);
        }),
      );
      expect(Math.max(...refusedAfter), `refused after ${refusedAfter.join(' ms and ')} ms`).toBeLessThan(
        PROPAGATION_BOUND_MS,
      );
      expect(replicaA.trustLists.sequences().get(list.ecosystemId)).toBe(2);
      expect(replicaB.trustLists.sequences().get(list.ecosystemId)).toBe(2);
    });

    test('a withdrawal is not hidden by the validated-chain cache: the same chain, validated and cached, is refused on its next presentation', async ({
      replicaB,
      settings: { b },
      ecosystem,
    }) => {
      const issuer = await createRegistryIssuer('Cached Then Withdrawn');
      const other = await createRegistryIssuer('Stays Active');
      const listed = entity({ name: 'Cached Then Withdrawn', certificates: [issuer.ca] });
      const list = ecosystem.add({
        entities: [listed, entity({ name: 'Stays Active', certificates: [other.ca] })],
        members: new Set([ORG]),
      });
      const session = () =>
        b.createSession({ dcql: sdJwtQuery(), responseMode: 'direct_post', ecosystemId: list.ecosystemId });
      for (let i = 0; i < 2; i++) {
        const s = await session();
        await expectVerified(b, s, await answerAs(b, s, issuer));
      }
      const cached = cacheOfB.chains.size;
      const pending = await session();
      ecosystem.setStatus(list, listed.id, 'withdrawn');
      await eventually(
        () => replicaB.trustLists.sequences().get(list.ecosystemId) === 2,
        PROPAGATION_BOUND_MS,
        'the withdrawal reached replica B',
      );
      const refused = await answerAs(b, pending, issuer);
      expect(refused.status).toBe(400);
      expect((await b.readSession(pending.id)).error).toMatchObject({ code: 'ISSUER_NOT_TRUSTED' });
      // The other issuer's chains are still judged (and cached) under the new anchor set.
      const s = await session();
      await expectVerified(b, s, await answerAs(b, s, other));
      expect(cacheOfB.chains.size).toBeGreaterThan(cached);
    });

    test('a replica starting fetches the lists of open sessions without waiting for a request', async ({
      testDb,
      settings: { a },
      ecosystem,
    }) => {
      const issuer = await createRegistryIssuer('Open Session Issuer');
      const list = ecosystem.add({
        entities: [entity({ name: 'Open Session Issuer', certificates: [issuer.ca] })],
        members: new Set([ORG]),
      });
      const open = await a.createSession({
        dcql: sdJwtQuery(),
        responseMode: 'direct_post',
        ecosystemId: list.ecosystemId,
      });
      const fetchesBefore = ecosystem.received.filter((request) => request.ecosystemId === list.ecosystemId).length;
      let started: Harness | undefined;
      try {
        started = await createHarness({
          databaseUrl: testDb.url!,
          connectBus: namespace.connect,
          config: { KEY_ENCRYPTION_KEY: keyEncryptionKey },
        });
        const replica = started;
        await eventually(
          () => replica.trustLists.sequences().get(list.ecosystemId) === 1,
          3000,
          'the new replica fetched the list of the open session',
        );
        expect(ecosystem.received.filter((request) => request.ecosystemId === list.ecosystemId).length).toBe(
          fetchesBefore + 1,
        );
        // It answers the open session with the list it fetched at start.
        const c = await createE2e(replica, 'desk');
        await expectVerified(c, open, await answerAs(c, open, issuer));
      } finally {
        await started?.close();
      }
    });
  },
);
