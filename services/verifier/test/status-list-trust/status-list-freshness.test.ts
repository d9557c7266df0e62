import { deflateSync } from 'node:zlib';
import { SignJWT } from 'jose';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createE2e, type E2e } from '../support/e2e.js';
import { startStatusListServer, type StatusListServer } from '../verification/support/status-list-server.js';
import { answerWithStatus, expectOutcome, INVALID, newList, serveList, VALID } from './support.js';

// A status list token must carry iat; one whose exp has passed, or that is
// older than its own ttl when fetched, is refused (STATUS_LIST_UNAVAILABLE). A
// revocation is seen within min(ttl, STATUS_LIST_MAX_CACHE_SECONDS), default
// 300 s — shown with the service's injected clock, never by sleeping.
const nowSeconds = () => Math.floor(Date.now() / 1000);

let server: StatusListServer;
let e: E2e;
let shortCache: E2e;
beforeAll(async () => {
  server = await startStatusListServer();
  e = await createE2e();
  shortCache = await createE2e({ config: { STATUS_LIST_MAX_CACHE_SECONDS: '120' } });
});
afterEach(() => {
  e.h.clock.offsetMs = 0;
  shortCache.h.clock.offsetMs = 0;
});
afterAll(async () => {
  await shortCache.close();
  await e.close();
  await server.close();
});

/** Serves a list signed by the target's issuer with `claims`, and answers with entry 0 of it. */
async function answerWithList(target: E2e, claims: { iat?: number; exp?: number; ttl?: number }) {
  const list = newList(server);
  await serveList(server, list.path, { signingKey: target.issuer.leaf.keys.privateKey, x5c: [target.issuer.leaf.x5c], ...claims });
  if (claims.iat === undefined) {
    // createStatusListToken always writes iat: serve one without it, signed the same way.
    const body = await new SignJWT({ sub: list.uri, ttl: 60, status_list: { bits: 2, lst: deflateSync(Buffer.alloc(1)).toString('base64url') } })
      .setProtectedHeader({ alg: 'ES256', typ: 'statuslist+jwt', x5c: [target.issuer.leaf.x5c] })
      .sign(target.issuer.leaf.keys.privateKey);
    server.routes.set(list.path, { body });
  }
  return answerWithStatus(target, target.issuer, { uri: list.uri, idx: 0 });
}

describe('the status list token’s own times', () => {
  it('control: iat now, ttl 60, exp in an hour verifies', async () => {
    expectOutcome(await answerWithList(e, { iat: nowSeconds(), ttl: 60, exp: nowSeconds() + 3600 }), 'VERIFIED');
  });

  it('a token without iat → STATUS_LIST_UNAVAILABLE', async () => {
    expect(expectOutcome(await answerWithList(e, {}), 'STATUS_LIST_UNAVAILABLE')).toContain('no iat');
  });

  it('a token whose exp has passed → STATUS_LIST_UNAVAILABLE', async () => {
    expect(expectOutcome(await answerWithList(e, { iat: nowSeconds() - 600, exp: nowSeconds() - 1 }), 'STATUS_LIST_UNAVAILABLE')).toContain('expired');
  });

  it('a token older than its ttl when fetched is stale → STATUS_LIST_UNAVAILABLE (beyond the clock skew of 60 s)', async () => {
    expect(expectOutcome(await answerWithList(e, { iat: nowSeconds() - 1000, ttl: 600 }), 'STATUS_LIST_UNAVAILABLE')).toContain('older than its ttl');
    expectOutcome(await answerWithList(e, { iat: nowSeconds() - 630, ttl: 600 }), 'VERIFIED');
  });

  it('a token issued in the future (beyond skew) → STATUS_LIST_UNAVAILABLE', async () => {
    expect(expectOutcome(await answerWithList(e, { iat: nowSeconds() + 3600, ttl: 60 }), 'STATUS_LIST_UNAVAILABLE')).toContain('in the future');
  });
});

describe('a revocation is seen within min(ttl, STATUS_LIST_MAX_CACHE_SECONDS)', () => {
  /** Publishes entry 0 VALID, verifies (fetch 1), then has the issuer re-sign it INVALID: the same URI, a new token. */
  async function revokeAfterFirstUse(target: E2e, ttl: number) {
    const list = newList(server);
    const sign = (statuses: number[]) => serveList(server, list.path, { signingKey: target.issuer.leaf.keys.privateKey, x5c: [target.issuer.leaf.x5c], ttl, statuses });
    await sign([VALID]);
    expectOutcome(await answerWithStatus(target, target.issuer, { uri: list.uri, idx: 0 }), 'VERIFIED');
    expect(server.hits.get(list.path)).toBe(1);
    await sign([INVALID]);
    const at = async (seconds: number) => {
      target.h.clock.offsetMs = seconds * 1000;
      return answerWithStatus(target, target.issuer, { uri: list.uri, idx: 0 });
    };
    return { list, at };
  }

  // Margins of several seconds on each side keep a slow machine from crossing a boundary between two steps.
  it('ttl 600 under the default 300 s bound: cached (not re-fetched) until 300 s, revoked after', async () => {
    const { list, at } = await revokeAfterFirstUse(e, 600);
    expectOutcome(await at(290), 'VERIFIED');
    expect(server.hits.get(list.path)).toBe(1);
    expectOutcome(await at(310), 'CREDENTIAL_REVOKED');
    expect(server.hits.get(list.path)).toBe(2);
  });

  it('ttl 30: revoked once 30 s have passed', async () => {
    const { at } = await revokeAfterFirstUse(e, 30);
    expectOutcome(await at(25), 'VERIFIED');
    expectOutcome(await at(35), 'CREDENTIAL_REVOKED');
  });

  it('STATUS_LIST_MAX_CACHE_SECONDS=120 bounds a ttl of 600 at 120 s', async () => {
    const { at } = await revokeAfterFirstUse(shortCache, 600);
    expectOutcome(await at(110), 'VERIFIED');
    expectOutcome(await at(130), 'CREDENTIAL_REVOKED');
  });
});
