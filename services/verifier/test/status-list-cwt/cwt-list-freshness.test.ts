import { describe, expect, type OnTestFinishedHandler } from 'vitest';
import { e2eFixture, e2eTest } from '../support/fixtures.js';
import {
  answerWithStatus,
  expectOutcome,
  INVALID,
  newList,
  serveList,
  VALID,
  type StatusSetting,
} from '../status-list-trust/support.js';
import { createStatusListCwt } from '../verification/support/status-list-cwt.js';
import { startStatusListServer, type StatusListServer } from '../verification/support/status-list-server.js';

// The times of a Status List Token in CWT form (iat 6, exp 4, ttl 65534) are judged as a
// JWT one's are (status-list-trust/status-list-freshness.test.ts): iat required and not
// in the future, exp not passed, a copy older than its ttl refused; a revocation is seen
// within min(ttl, STATUS_LIST_MAX_CACHE_SECONDS), shown with the service's clock.
const nowSeconds = () => Math.floor(Date.now() / 1000);

const test = e2eTest()
  .extend('server', { scope: 'file' }, async ({}, { onCleanup }): Promise<StatusListServer> => {
    const server = await startStatusListServer();
    onCleanup(() => server.close());
    return server;
  })
  .extend('shortCache', { scope: 'file' }, e2eFixture({ config: { STATUS_LIST_MAX_CACHE_SECONDS: '120' } }));

/** Serves a CWT list signed by the target's issuer with `times` (iat null: none), and answers with entry 0 of it. */
async function answerWithList(
  server: StatusListServer,
  setting: StatusSetting,
  times: { iat: number | null; exp?: number; ttl?: number },
) {
  const { issuer } = setting.e2e;
  const list = newList(server);
  const body = await createStatusListCwt({
    signingKey: issuer.leaf.keys.privateKey,
    x5chain: [issuer.leaf.der],
    sub: list.uri,
    statuses: [VALID],
    ...times,
  });
  server.routes.set(list.path, { body, contentType: 'application/statuslist+cwt' });
  return answerWithStatus(setting, issuer, { uri: list.uri, idx: 0 });
}

describe('the CWT token’s own times', () => {
  test('control: iat now, ttl 60, exp in an hour verifies', async ({ server, e2e, harness }) => {
    expectOutcome(
      await answerWithList(server, { e2e, harness }, { iat: nowSeconds(), ttl: 60, exp: nowSeconds() + 3600 }),
      'VERIFIED',
    );
  });

  test.for([
    ['without iat', { iat: null, ttl: 60 }],
    ['whose exp has passed', { iat: -600, exp: -1 }],
    ['older than its ttl when fetched (beyond the clock skew of 60 s)', { iat: -1000, ttl: 600 }],
    ['issued in the future (beyond skew)', { iat: 3600, ttl: 60 }],
  ] as const)('a token %s → STATUS_LIST_UNAVAILABLE', async ([_case, offsets], { server, e2e, harness }) => {
    const at = (offset: number | undefined) => (offset === undefined ? undefined : nowSeconds() + offset);
    const times = {
      iat: offsets.iat === null ? null : at(offsets.iat)!,
      ...('exp' in offsets ? { exp: at(offsets.exp) } : {}),
      ...('ttl' in offsets ? { ttl: offsets.ttl } : {}),
    };
    // Why is the engine's to say (test/verification/status-list-cwt.test.ts); the session reads one sentence.
    expectOutcome(await answerWithList(server, { e2e, harness }, times), 'STATUS_LIST_UNAVAILABLE');
  });

  test('a token just within its ttl plus the skew verifies', async ({ server, e2e, harness }) => {
    expectOutcome(await answerWithList(server, { e2e, harness }, { iat: nowSeconds() - 630, ttl: 600 }), 'VERIFIED');
  });
});

describe('a revocation in a CWT list is seen within min(ttl, STATUS_LIST_MAX_CACHE_SECONDS)', () => {
  async function revokeAfterFirstUse(
    server: StatusListServer,
    setting: StatusSetting,
    ttl: number,
    onTestFinished: (handler: OnTestFinishedHandler) => void,
  ) {
    const { issuer } = setting.e2e;
    onTestFinished(() => {
      setting.harness.clock.offsetMs = 0;
    });
    const list = newList(server);
    const sign = (statuses: number[]) =>
      serveList(server, list.path, {
        form: 'cwt',
        signingKey: issuer.leaf.keys.privateKey,
        x5c: [issuer.leaf.x5c],
        ttl,
        statuses,
      });
    await sign([VALID]);
    expectOutcome(await answerWithStatus(setting, issuer, { uri: list.uri, idx: 0 }), 'VERIFIED');
    expect(server.hits.get(list.path)).toBe(1);
    await sign([INVALID]);
    const at = async (seconds: number) => {
      setting.harness.clock.offsetMs = seconds * 1000;
      return answerWithStatus(setting, issuer, { uri: list.uri, idx: 0 });
    };
    return { list, at };
  }

  test('ttl 600 under the default 300 s bound: cached until 300 s, revoked after', async ({
    server,
    e2e,
    harness,
    onTestFinished,
  }) => {
    const { list, at } = await revokeAfterFirstUse(server, { e2e, harness }, 600, onTestFinished);
    expectOutcome(await at(290), 'VERIFIED');
    expect(server.hits.get(list.path)).toBe(1);
    expectOutcome(await at(310), 'CREDENTIAL_REVOKED');
    expect(server.hits.get(list.path)).toBe(2);
  });

  test('ttl 30: revoked once 30 s have passed', async ({ server, e2e, harness, onTestFinished }) => {
    const { at } = await revokeAfterFirstUse(server, { e2e, harness }, 30, onTestFinished);
    expectOutcome(await at(25), 'VERIFIED');
    expectOutcome(await at(35), 'CREDENTIAL_REVOKED');
  });

  test('STATUS_LIST_MAX_CACHE_SECONDS=120 bounds a ttl of 600 at 120 s', async ({
    server,
    shortCache,
    onTestFinished,
  }) => {
    const { at } = await revokeAfterFirstUse(server, shortCache, 600, onTestFinished);
    expectOutcome(await at(110), 'VERIFIED');
    expectOutcome(await at(130), 'CREDENTIAL_REVOKED');
  });
});
