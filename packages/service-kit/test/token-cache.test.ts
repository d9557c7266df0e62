import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { exportJWK, generateKeyPair, SignJWT, type CryptoKey, type JWK } from 'jose';
import { createTokenVerifier, type TokenVerifier } from '../src/index.js';
import { VerifiedTokenCache } from '../src/auth/verified-token-cache.js';

// The verified-token cache (issue 27): a token's signature is verified once per replica
// until its exp, and nothing about what is accepted changes. Signatures are counted by
// watching WebCrypto's verify, which jose calls for every signature it checks.

const ISSUER = 'https://idp.example.com/realms/tessera';
const AUDIENCE = 'tessera-api';
const T0 = Date.parse('2026-11-27T12:00:00Z');

let key: CryptoKey;
let jwk: JWK;

beforeAll(async () => {
  const pair = await generateKeyPair('ES256', { extractable: true });
  key = pair.privateKey;
  jwk = { ...(await exportJWK(pair.publicKey)), kid: 'k1', alg: 'ES256' };
});
afterEach(() => {
  vi.restoreAllMocks();
  vi.useRealTimers();
});

/** A token issued at `atMs`, valid for `lifetimeSeconds`, with `claims` over the defaults. */
function mint(
  atMs: number,
  options: { lifetimeSeconds?: number; claims?: Record<string, unknown>; kid?: string; signWith?: CryptoKey } = {},
) {
  const iat = Math.floor(atMs / 1000);
  return new SignJWT({ resource_access: { 'org-1': { roles: ['owner'] } }, ...options.claims })
    .setProtectedHeader({ alg: 'ES256', kid: options.kid ?? 'k1' })
    .setIssuer(ISSUER)
    .setAudience(AUDIENCE)
    .setSubject('user-1')
    .setIssuedAt(iat)
    .setExpirationTime(iat + (options.lifetimeSeconds ?? 300))
    .sign(options.signWith ?? key);
}

/** A verifier over the inline key set whose clock the test moves. */
function verifierAt(clock: { now: number }, cacheSize?: number): TokenVerifier {
  return createTokenVerifier(
    { issuer: ISSUER, audience: AUDIENCE, jwks: { keys: [jwk] } },
    { clock: () => new Date(clock.now), ...(cacheSize !== undefined ? { cacheSize } : {}) },
  );
}

/** Counts the signatures WebCrypto verifies from now on. */
function countSignatureChecks() {
  return vi.spyOn(globalThis.crypto.subtle, 'verify');
}

const refusal = (promise: Promise<unknown>) =>
  promise.then(
    () => 'accepted',
    (error: { statusCode?: number; message?: string }) => `${error.statusCode}: ${error.message}`,
  );

describe('verified-token cache', () => {
  it('verifies a token’s signature once, then answers the same principal from the cache', async () => {
    const clock = { now: T0 };
    const verify = verifierAt(clock);
    const token = await mint(T0);
    const checks = countSignatureChecks();
    const first = await verify(token);
    clock.now += 120_000;
    const second = await verify(token);
    expect(second).toEqual({ sub: 'user-1', platformAdmin: false, orgRoles: { 'org-1': ['owner'] } });
    expect(second).toBe(first);
    expect(Object.isFrozen(second) && Object.isFrozen(second.orgRoles)).toBe(true);
    expect(checks).toHaveBeenCalledTimes(1);
  });

  it('refuses a cached token once its exp has passed (the same 30 s tolerance as the first check)', async () => {
    const clock = { now: T0 };
    const verify = verifierAt(clock);
    const token = await mint(T0, { lifetimeSeconds: 60 });
    await verify(token);
    clock.now = T0 + (60 + 29) * 1000;
    expect(await refusal(verify(token))).toBe('accepted');
    clock.now = T0 + (60 + 30) * 1000;
    expect(await refusal(verify(token))).toBe('401: The access token has expired.');
    // And without the cache, the same answers at the same times.
    const uncached = verifierAt(clock, 0);
    expect(await refusal(uncached(token))).toBe('401: The access token has expired.');
  });

  it('checks the clock-bound claims of a cached token on every use: a clock set back before nbf refuses it', async () => {
    const clock = { now: T0 };
    const verify = verifierAt(clock);
    const token = await mint(T0, { claims: { nbf: Math.floor(T0 / 1000) } });
    await verify(token);
    clock.now = T0 - 31_000;
    expect(await refusal(verify(token))).toBe('401: The access token is not valid here (nbf claim).');
    expect(await refusal(verifierAt(clock, 0)(token))).toBe('401: The access token is not valid here (nbf claim).');
  });

  it('never serves a token that differs in one byte from a cached one', async () => {
    const clock = { now: T0 };
    const verify = verifierAt(clock);
    const token = await mint(T0);
    await verify(token);
    const [header, payload, signature] = token.split('.') as [string, string, string];
    const flip = (text: string, at: number) => text.slice(0, at) + (text[at] === 'A' ? 'B' : 'A') + text.slice(at + 1);
    const checks = countSignatureChecks();
    // Another signature, and a payload naming another subject with the cached token's signature.
    expect(await refusal(verify(`${header}.${payload}.${flip(signature, 10)}`))).toBe(
      '401: The access token is not signed by a trusted key.',
    );
    const otherPayload = Buffer.from(
      JSON.stringify({ ...JSON.parse(Buffer.from(payload, 'base64url').toString()), sub: 'user-2' }),
    ).toString('base64url');
    expect(await refusal(verify(`${header}.${otherPayload}.${signature}`))).toBe(
      '401: The access token is not signed by a trusted key.',
    );
    expect(checks).toHaveBeenCalledTimes(2);
    expect(await refusal(verify(token))).toBe('accepted');
    expect(checks).toHaveBeenCalledTimes(2);
  });

  it('is bounded: beyond its size the least recently used token is verified again', async () => {
    const clock = { now: T0 };
    const verify = verifierAt(clock, 2);
    const tokens = await Promise.all([1, 2, 3].map((n) => mint(T0 + n * 1000)));
    const checks = countSignatureChecks();
    for (const token of tokens) await verify(token);
    expect(checks).toHaveBeenCalledTimes(3);
    await verify(tokens[2]!);
    await verify(tokens[1]!);
    expect(checks).toHaveBeenCalledTimes(3);
    await verify(tokens[0]!);
    expect(checks).toHaveBeenCalledTimes(4);
  });

  it('keeps at most its size and drops an entry past its usable time', () => {
    const cache = new VerifiedTokenCache(2);
    const entry = (usableUntilMs: number) => ({
      protectedHeader: { alg: 'ES256' },
      payload: {},
      key: undefined,
      usableUntilMs,
      principal: { sub: 's', platformAdmin: false, orgRoles: {} },
    });
    cache.set('a', entry(T0 + 1000));
    cache.set('b', entry(T0 + 1000));
    cache.set('c', entry(T0 + 1000));
    expect(cache.size).toBe(2);
    expect(cache.get('a', T0)).toBeUndefined();
    expect(cache.get('b', T0)).toBeDefined();
    expect(cache.get('c', T0 + 1000)).toBeUndefined();
    expect(cache.size).toBe(1);
  });

  it('does not remember refused tokens', async () => {
    const clock = { now: T0 };
    const verify = verifierAt(clock);
    const other = (await generateKeyPair('ES256')).privateKey;
    const foreign = await mint(T0, { signWith: other });
    const checks = countSignatureChecks();
    expect(await refusal(verify(foreign))).toBe('401: The access token is not signed by a trusted key.');
    expect(await refusal(verify(foreign))).toBe('401: The access token is not signed by a trusted key.');
    expect(checks).toHaveBeenCalledTimes(2);
  });
});

describe('verified-token cache with a remote key set', () => {
  let server: Server;
  let served: { keys: JWK[] };
  let fetches = 0;

  beforeAll(async () => {
    served = { keys: [jwk] };
    server = createServer((_request, response) => {
      fetches += 1;
      response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(served));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it('refuses a cached token once the key set has reloaded without its key, as without the cache', async () => {
    vi.useFakeTimers({ toFake: ['Date'], now: T0 });
    const { port } = server.address() as AddressInfo;
    const settings = { issuer: ISSUER, audience: AUDIENCE, jwksUri: `http://127.0.0.1:${port}/jwks` };
    const cached = createTokenVerifier(settings);
    const uncached = createTokenVerifier(settings, { cacheSize: 0 });
    const token = await mint(T0);
    expect(await refusal(cached(token))).toBe('accepted');
    expect(await refusal(uncached(token))).toBe('accepted');
    // The provider rotates: k1 leaves the set, k2 comes. A token under k2, after the
    // cool-down, makes both verifiers fetch the set again.
    const next = await generateKeyPair('ES256', { extractable: true });
    served = { keys: [{ ...(await exportJWK(next.publicKey)), kid: 'k2', alg: 'ES256' }] };
    vi.setSystemTime(T0 + 31_000);
    const rotated = await mint(T0 + 31_000, { kid: 'k2', signWith: next.privateKey });
    const fetchesBefore = fetches;
    expect(await refusal(cached(rotated))).toBe('accepted');
    expect(await refusal(uncached(rotated))).toBe('accepted');
    expect(fetches).toBe(fetchesBefore + 2);
    expect(await refusal(cached(token))).toBe('401: The access token is not signed by a trusted key.');
    expect(await refusal(uncached(token))).toBe('401: The access token is not signed by a trusted key.');
  });
});
