import { describe, expect } from 'vitest';
import { createTestBusNamespace, missingServer } from '@tessera/service-kit/testing';
import { generateKeyEncryptionKey } from '../../src/crypto/key-encryption.js';
import { answerWithCredential } from '../support/answers.js';
import { sdJwtQuery } from '../support/dcql-queries.js';
import { createE2e, type E2e } from '../support/e2e.js';
import { databaseTest, harnessFixture } from '../support/fixtures.js';
import { memberCall, ORG, oid4vpPath } from '../support/management.js';
import { expectHubEmpty, openEventStream, stateOf } from './support.js';

// Two verifier replicas (two apps) on one database and the run's NATS server, as
// two pods behind a load balancer: the relying party's stream is on replica A,
// the wallet's request and answer land on replica B. Each replica hears of the
// change through its own plain subscription to `verifier.v1.session.updated`.
const keyEncryptionKey = generateKeyEncryptionKey();
const namespace = createTestBusNamespace();
type Hooks = { onCleanup(cleanup: () => Promise<void> | void): void };
const replica = ({ testDb }: { testDb: { url?: string } }, hooks: Hooks) =>
  harnessFixture({
    databaseUrl: testDb.url!,
    connectBus: namespace.connect,
    config: { KEY_ENCRYPTION_KEY: keyEncryptionKey },
  })({}, hooks);

const test = databaseTest
  .extend('replicaA', { scope: 'file' }, replica)
  .extend('replicaB', { scope: 'file' }, replica)
  .extend('settings', { scope: 'file' }, async ({ replicaA, replicaB }): Promise<{ a: E2e; b: E2e }> => {
    expect((await memberCall(replicaA)('POST', `${oid4vpPath()}/verifier`, { verifierId: 'desk' })).status).toBe(201);
    return { a: await createE2e(replicaA, 'desk'), b: await createE2e(replicaB, 'desk') };
  });

describe.skipIf(
  missingServer('postgres', 'two verifier replicas on one database') ||
    missingServer('nats', 'session events across replicas'),
)('session events across replicas', () => {
  test('a stream on replica A gets the changes made on replica B', async ({ replicaA, settings: { a, b } }) => {
    const session = await a.createSession({ dcql: sdJwtQuery(), responseMode: 'direct_post' });
    const stream = await openEventStream(a.url, session.id, await replicaA.auth(ORG));
    await stream.waitForEvents(1);
    // The wallet (B's issuer is anchored in ORG too: one database) fetches and answers through B.
    expect(await answerWithCredential(b, 'sd-jwt', session)).toEqual({ status: 200, body: {} });
    await stream.waitForEnd();
    expect(stream.events.map((event) => [event.id, stateOf(event).state])).toEqual([
      ['1', 'RequestCreated'],
      ['2', 'RequestUriRetrieved'],
      ['3', 'ResponseVerified'],
    ]);
    expect(stateOf(stream.events[2]!).changedAt).toBe((await b.readSession(session.id)).updatedAt);
    await expectHubEmpty(replicaA);
  });

  test('streams on both replicas end together; a client connecting to either afterwards gets the current state', async ({
    replicaA,
    replicaB,
    settings: { a, b },
  }) => {
    const session = await b.createSession({ dcql: sdJwtQuery(), responseMode: 'direct_post' });
    const onA = await openEventStream(a.url, session.id, await replicaA.auth(ORG));
    const onB = await openEventStream(b.url, session.id, await replicaB.auth(ORG));
    await Promise.all([onA.waitForEvents(1), onB.waitForEvents(1)]);
    expect(
      (await a.postForm(session.responseUri!, { error: 'access_denied', state: session.payloadState })).status,
    ).toBe(200);
    for (const stream of [onA, onB]) {
      await stream.waitForEnd();
      expect(stateOf(stream.events.at(-1)!)).toMatchObject({ state: 'Error', error: { code: 'WALLET_ERROR' } });
    }
    for (const [e, h] of [
      [a, replicaA],
      [b, replicaB],
    ] as const) {
      const late = await openEventStream(e.url, session.id, await h.auth(ORG));
      await late.waitForEnd();
      expect(late.events.map((event) => [event.id, stateOf(event).state])).toEqual([['3', 'Error']]);
    }
    await expectHubEmpty(replicaA);
    await expectHubEmpty(replicaB);
  });

  test('an expiry persisted by one replica’s timer ends the streams on both', async ({
    replicaA,
    replicaB,
    settings: { a, b },
  }) => {
    const session = await a.createSession({ dcql: sdJwtQuery(), responseMode: 'direct_post', expiresInSeconds: 1 });
    const onA = await openEventStream(a.url, session.id, await replicaA.auth(ORG));
    const onB = await openEventStream(b.url, session.id, await replicaB.auth(ORG));
    for (const stream of [onA, onB]) {
      await stream.waitForEnd(4000);
      expect(stateOf(stream.events.at(-1)!)).toEqual({
        id: session.id,
        state: 'Error',
        error: { code: 'SESSION_EXPIRED', message: expect.any(String) },
        changedAt: session.expiresAt,
      });
    }
    await expectHubEmpty(replicaA);
    await expectHubEmpty(replicaB);
  });
});
