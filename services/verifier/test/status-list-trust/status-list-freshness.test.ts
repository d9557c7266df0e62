import { deflateSync } from 'node:zlib';
import { SignJWT } from 'jose';
import { describe, expect, type OnTestFinishedHandler } from 'vitest';
import { e2eFixture, e2eTest } from '../support/fixtures.js';
import { startStatusListServer, type StatusListServer } from '../verification/support/status-list-server.js';
import { answerWithStatus, expectOutcome, INVALID, newList, serveList, VALID, type StatusSetting } from './support.js';

// A status list token must carry iat; one whose exp has passed, or that is
// older than its own ttl when fetched, is refused (STATUS_LIST_UNAVAILABLE). A
// revocation is seen within min(ttl, STATUS_LIST_MAX_CACHE_SECONDS), default
// 300 s — shown with the service's injected clock, never by sleeping.
const nowSeconds = () => Math.floor(Date.now() / 1000);

// `server`: the status list server; `shortCache`: a second setting with STATUS_LIST_MAX_CACHE_SECONDS=120.
const test = e2eTest()
  .extend('server', { scope: 'file' }, async ({}, { onCleanup }): Promise<StatusListServer> => {
    const server = await startStatusListServer();
    onCleanup(() => server.close());
    return server;
  })
  .extend('shortCache', { scope: 'file' }, e2eFixture({ config: { STATUS_LIST_MAX_CACHE_SECONDS: '120' } }));

/** Serves a list signed by the target's issuer with `claims`, and answers with entry 0 of it. */
async function answerWithList(
  server: StatusListServer,
  setting: StatusSetting,
  claims: { iat?: number; exp?: number; ttl?: number },
) {
  const target = setting.e2e;
  const list = newList(server);
  await serveList(server, list.path, {
    signingKey: target.issuer.leaf.keys.privateKey,
    x5c: [target.issuer.leaf.x5c],
    ...claims,
  });
  if (claims.iat === undefined) {
    // createStatusListToken always writes iat: serve one without it, signed the same way.
    const body = await new SignJWT({
      sub: list.uri,
      ttl: 60,
      status_list: { bits: 2, lst: deflateSync(Buffer.alloc(1)).toString('base64url') },
    })
      .setProtectedHeader({ alg: 'ES256', typ: 'statuslist+jwt', x5c: [target.issuer.leaf.x5c] })
      .sign(target.issuer.leaf.keys.privateKey);
    server.routes.set(list.path, { body });
  }
  return answerWithStatus(setting, target.issuer, { uri: list.uri, idx: 0 });
}

describe('the status list token’s own times', () => {
  test('control: iat now, ttl 60, exp in an hour verifies', async ({ server, e2e, harness }) => {
    expectOutcome(
      await answerWithList(server, { e2e, harness }, { iat: nowSeconds(), ttl: 60, exp: nowSeconds() + 3600 }),
      'VERIFIED',
    );
  });

  test('a token without iat → STATUS_LIST_UNAVAILABLE', async ({ server, e2e, harness }) => {
    expectOutcome(await answerWithList(server, { e2e, harness }, {}), 'STATUS_LIST_UNAVAILABLE');
  });

  test('a token whose exp has passed → STATUS_LIST_UNAVAILABLE', async ({ server, e2e, harness }) => {
    expectOutcome(
      await answerWithList(server, { e2e, harness }, { iat: nowSeconds() - 600, exp: nowSeconds() - 1 }),
      'STATUS_LIST_UNAVAILABLE',
    );
  });

  test('a token older than its ttl when fetched is stale → STATUS_LIST_UNAVAILABLE (beyond the clock skew of 60 s)', async ({
    server,
    e2e,
    harness,
  }) => {
    expectOutcome(
      await answerWithList(server, { e2e, harness }, { iat: nowSeconds() - 1000, ttl: 600 }),
      'STATUS_LIST_UNAVAILABLE',
    );
    expectOutcome(await answerWithList(server, { e2e, harness }, { iat: nowSeconds() - 630, ttl: 600 }), 'VERIFIED');
  });

  test('a token issued in the future (beyond skew) → STATUS_LIST_UNAVAILABLE', async ({ server, e2e, harness }) => {
    expectOutcome(
      await answerWithList(server, { e2e, harness }, { iat: nowSeconds() + 3600, ttl: 60 }),
      'STATUS_LIST_UNAVAILABLE',
    );
  });
});

describe('a revocation is seen within min(ttl, STATUS_LIST_MAX_CACHE_SECONDS)', () => {
  /**
   * Publishes entry 0 VALID, verifies (fetch 1), then has the issuer re-sign it INVALID: the same URI, a new token.
   * `at(seconds)` answers with the setting's clock that far ahead, put back when the test ends.
   */
  async function revokeAfterFirstUse(
    server: StatusListServer,
    setting: StatusSetting,
    ttl: number,
    onTestFinished: (handler: OnTestFinishedHandler) => void,
  ) {
    const target = setting.e2e;
    onTestFinished(() => {
      setting.harness.clock.offsetMs = 0;
    });
    const list = newList(server);
    const sign = (statuses: number[]) =>
      serveList(server, list.path, {
        signingKey: target.issuer.leaf.keys.privateKey,
        x5c: [target.issuer.leaf.x5c],
        ttl,
        statuses,
      });
    await sign([VALID]);
    expectOutcome(await answerWithStatus(setting, target.issuer, { uri: list.uri, idx: 0 }), 'VERIFIED');
    expect(server.hits.get(list.path)).toBe(1);
    await sign([INVALID]);
    const at = async (seconds: number) => {
      setting.harness.clock.offsetMs = seconds * 1000;
      return answerWithStatus(setting, target.issuer, { uri: list.uri, idx: 0 });
    };
    return { list, at };
  }

  // Margins of several seconds on each side keep a slow machine from crossing a boundary between two steps.
  test('ttl 600 under the default 300 s bound: cached (not re-fetched) until 300 s, revoked after', async ({
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
