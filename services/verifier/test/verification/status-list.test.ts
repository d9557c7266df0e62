import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServiceMetrics } from '@tessera/service-kit';
import { metricSample } from '@tessera/service-kit/testing';
import { createVerifierMetrics } from '../../src/metrics/verifier-metrics.js';
import { createStatusListChecker } from '../../src/state/status-list-checker.js';
import { readStatusListEntry, type StatusListChecker } from '../../src/verification/index.js';
import { createPki, NOW, NOW_SECONDS, type Pki } from './support/fixtures.js';
import { createCa, createLeaf } from './support/pki.js';
import { issuePid, presentPid, verify, type Holder } from './support/sd-jwt-scenario.js';
import { didJwk, generateEs256, issueSdJwtVc } from './support/sd-jwt.js';
import {
  createStatusListToken,
  packStatuses,
  startStatusListServer,
  type StatusListServer,
} from './support/status-list-server.js';

const VALID = 0;
const INVALID = 1;
const SUSPENDED = 2;
const STATUSES = [VALID, INVALID, SUSPENDED, 3, VALID, VALID];

describe('readStatusListEntry (vectors.md)', () => {
  it('reads the 1-bit vector, least significant bit first', () => {
    expect(packStatuses([1, 0, 0, 1, 1, 1, 0, 1, 1, 1, 0, 0, 0, 1, 0, 1], 1).toString('hex')).toBe('b9a3');
    const expected = [1, 0, 0, 1, 1, 1, 0, 1, 1, 1, 0, 0, 0, 1, 0, 1];
    expected.forEach((status, idx) =>
      expect(readStatusListEntry({ lst: 'eNrbuRgAAhcBXQ', bits: 1, idx, maxInflatedBytes: 1024 })).toBe(status),
    );
  });

  it('reads the 2-bit vector', () => {
    const expected = [1, 2, 0, 3, 0, 1, 0, 1, 1, 2, 3, 3];
    expected.forEach((status, idx) =>
      expect(readStatusListEntry({ lst: 'eNo76fITAAPfAgc', bits: 2, idx, maxInflatedBytes: 1024 })).toBe(status),
    );
  });

  it('refuses an index outside the list, bad bits and an inflate bomb', () => {
    expect(() => readStatusListEntry({ lst: 'eNo76fITAAPfAgc', bits: 2, idx: 12, maxInflatedBytes: 1024 })).toThrow(
      /outside/,
    );
    expect(() => readStatusListEntry({ lst: 'eNo76fITAAPfAgc', bits: 3, idx: 0, maxInflatedBytes: 1024 })).toThrow(
      /bits/,
    );
    expect(() => readStatusListEntry({ lst: 'eNo76fITAAPfAgc', bits: 2, idx: 0, maxInflatedBytes: 2 })).toThrow();
  });
});

describe('status checks during verification', () => {
  let pki: Pki;
  let holder: Holder;
  let server: StatusListServer;
  let checker: StatusListChecker;

  beforeAll(async () => {
    pki = await createPki();
    holder = await generateEs256();
    server = await startStatusListServer();
    checker = createStatusListChecker({ timeoutMs: 500, maxBodyBytes: 4096 });
  });
  afterAll(() => server.close());

  async function publish(path: string, overrides: Partial<Parameters<typeof createStatusListToken>[0]> = {}) {
    const uri = `${server.baseUrl}${path}`;
    server.routes.set(path, {
      body: await createStatusListToken({
        signingKey: pki.issuer.keys.privateKey,
        x5c: [pki.issuer.x5c, pki.intermediate.x5c],
        sub: uri,
        statuses: STATUSES,
        iat: NOW_SECONDS - 60,
        ...overrides,
      }),
    });
    return uri;
  }

  async function presentWithStatus(uri: string, idx: number) {
    const issued = await issuePid(pki, holder, {
      claims: { iat: NOW_SECONDS - 3600, exp: NOW_SECONDS + 86_400, status: { status_list: { idx, uri } } },
    });
    return { pid: [await presentPid(issued, holder)] };
  }

  it('passes a VALID entry and reports it', async () => {
    const uri = await publish('/lists/valid');
    const result = await verify(pki, { vpToken: await presentWithStatus(uri, 0), statusLists: checker });
    expect(result).toMatchObject({ ok: true, presentations: [{ status: { uri, idx: 0, status: 'VALID' } }] });
    expect(result.ok && result.presentations[0]!.claims.status).toEqual({ status_list: { idx: 0, uri } });
  });

  it('maps INVALID to CREDENTIAL_REVOKED, SUSPENDED to CREDENTIAL_SUSPENDED and other values to CREDENTIAL_REVOKED', async () => {
    const uri = await publish('/lists/mixed');
    expect(await verify(pki, { vpToken: await presentWithStatus(uri, 1), statusLists: checker })).toMatchObject({
      ok: false,
      code: 'CREDENTIAL_REVOKED',
    });
    expect(await verify(pki, { vpToken: await presentWithStatus(uri, 2), statusLists: checker })).toMatchObject({
      ok: false,
      code: 'CREDENTIAL_SUSPENDED',
    });
    expect(await verify(pki, { vpToken: await presentWithStatus(uri, 3), statusLists: checker })).toMatchObject({
      ok: false,
      code: 'CREDENTIAL_REVOKED',
    });
  });

  it.each([
    ['an unreachable server', 'fetch failed', async () => 'http://127.0.0.1:1/lists/none'],
    ['a 404', 'answered 404', async () => `${server.baseUrl}/lists/missing`],
    ['a non-http URI', 'not fetched', async () => 'file:///etc/passwd'],
    [
      'a body over the cap',
      'larger than',
      async () => {
        server.routes.set('/lists/huge', { body: 'x'.repeat(10_000) });
        return `${server.baseUrl}/lists/huge`;
      },
    ],
    [
      'a slow server',
      'timeout',
      async () => {
        const uri = await publish('/lists/slow');
        server.routes.get('/lists/slow')!.delayMs = 2000;
        return uri;
      },
    ],
    ['a sub for another list', 'sub', async () => publish('/lists/sub', { sub: `${server.baseUrl}/lists/other` })],
    [
      'a token signed by an untrusted key',
      'not trusted',
      async () => {
        const rogue = await createLeaf('CN=Rogue Status Signer', await createCa('CN=Rogue Root'));
        return publish('/lists/rogue', { signingKey: rogue.keys.privateKey, x5c: [rogue.x5c] });
      },
    ],
    [
      'a token whose signature does not match its x5c',
      'signature is invalid',
      async () => publish('/lists/forged', { signingKey: (await generateEs256()).privateKey }),
    ],
    ['an expired token', 'expired', async () => publish('/lists/expired', { exp: NOW_SECONDS - 1 })],
    ['a token without iat', 'no iat', async () => publish('/lists/no-iat', { iat: undefined })],
    [
      'a token older than its ttl when fetched',
      'older than its ttl',
      async () => publish('/lists/stale', { iat: NOW_SECONDS - 1000, ttl: 600 }),
    ],
    [
      'a token issued in the future',
      'in the future',
      async () => publish('/lists/future', { iat: NOW_SECONDS + 3600, ttl: 60 }),
    ],
    [
      "a token signed by another leaf under the issuer's CA",
      'Neighbour Issuer',
      async () => {
        const neighbour = await createLeaf('CN=Neighbour Issuer,O=Tessera Tests,C=DE', pki.intermediate);
        return publish('/lists/neighbour', {
          signingKey: neighbour.keys.privateKey,
          x5c: [neighbour.x5c, pki.intermediate.x5c],
        });
      },
    ],
    ['the wrong typ', 'typ', async () => publish('/lists/typ', { typ: 'JWT' })],
    ['an index outside the list', 'outside', async () => publish('/lists/short', { statuses: [VALID] })],
  ])('refuses %s (STATUS_LIST_UNAVAILABLE)', async (_name, reason, uriOf) => {
    const uri = await uriOf();
    const result = await verify(pki, { vpToken: await presentWithStatus(uri, 5), statusLists: checker });
    expect(result).toMatchObject({ ok: false, code: 'STATUS_LIST_UNAVAILABLE' });
    expect((result as { message: string }).message).toContain(reason);
  });

  it('refuses a token signed under a different trust than the credential (STATUS_LIST_UNAVAILABLE)', async () => {
    const otherRoot = await createCa('CN=Other Trusted Root');
    const otherSigner = await createLeaf('CN=Other Status Signer', otherRoot);
    const uri = await publish('/lists/other-anchor', {
      signingKey: otherSigner.keys.privateKey,
      x5c: [otherSigner.x5c],
    });
    const result = await verify(pki, {
      vpToken: await presentWithStatus(uri, 0),
      statusLists: checker,
      trust: { certificates: [pki.root.pem, otherRoot.pem], dids: [] },
    });
    expect(result).toMatchObject({ ok: false, code: 'STATUS_LIST_UNAVAILABLE' });
    expect((result as { message: string }).message).toContain('another trust anchor');
  });

  it("verifies a DID issuer's status list with the issuer's DID key", async () => {
    const issuerKey = await generateEs256();
    const did = didJwk(issuerKey.publicJwk);
    const uri = `${server.baseUrl}/lists/did`;
    server.routes.set('/lists/did', {
      body: await createStatusListToken({
        signingKey: issuerKey.privateKey,
        kid: `${did}#0`,
        sub: uri,
        statuses: STATUSES,
        iat: NOW_SECONDS,
      }),
    });
    const issued = await issueSdJwtVc({
      signingKey: issuerKey.privateKey,
      kid: `${did}#0`,
      claims: { status: { status_list: { idx: 2, uri } } },
      disclosable: { given_name: 'Erika', age_over_18: true },
      holderPublicJwk: holder.publicJwk,
    });
    const result = await verify(pki, {
      vpToken: { pid: [await presentPid(issued, holder)] },
      statusLists: checker,
      trust: { certificates: [], dids: [did] },
    });
    expect(result).toMatchObject({ ok: false, code: 'CREDENTIAL_SUSPENDED' });
  });

  it('counts and times fetches over HTTP by result (tessera_verifier_status_list_fetches_total), cache hits not', async () => {
    const metrics = createServiceMetrics({ service: 'verifier' });
    const counting = createStatusListChecker({ timeoutMs: 500, metrics: createVerifierMetrics(metrics.registry) });
    const uri = await publish('/lists/counted', { ttl: 60 });
    const vpToken = await presentWithStatus(uri, 0);
    expect((await verify(pki, { vpToken, statusLists: counting })).ok).toBe(true);
    expect((await verify(pki, { vpToken, statusLists: counting })).ok).toBe(true);
    expect(
      await verify(pki, {
        vpToken: await presentWithStatus('http://127.0.0.1:1/lists/none', 0),
        statusLists: counting,
      }),
    ).toMatchObject({ ok: false, code: 'STATUS_LIST_UNAVAILABLE' });
    const scrape = await metrics.registry.metrics();
    expect(metricSample(scrape, 'tessera_verifier_status_list_fetches_total', { result: 'ok' })).toBe(1);
    expect(metricSample(scrape, 'tessera_verifier_status_list_fetches_total', { result: 'error' })).toBe(1);
    expect(metricSample(scrape, 'tessera_verifier_status_list_fetch_duration_seconds_count', { result: 'ok' })).toBe(1);
    expect(scrape).not.toContain('/lists/');
  });

  it('caches a token until its ttl and fetches it again afterwards', async () => {
    const cachingChecker = createStatusListChecker();
    const uri = await publish('/lists/cached', { ttl: 60 });
    const vpToken = await presentWithStatus(uri, 0);
    for (const offset of [0, 30_000]) {
      expect(
        (await verify(pki, { vpToken, statusLists: cachingChecker, now: new Date(NOW.getTime() + offset) })).ok,
      ).toBe(true);
    }
    expect(server.hits.get('/lists/cached')).toBe(1);
    // The issuer re-signs its list when it revokes (a token older than its ttl would be refused as stale).
    await publish('/lists/cached', { ttl: 60, statuses: [INVALID], iat: NOW_SECONDS + 61 });
    expect(
      await verify(pki, { vpToken, statusLists: cachingChecker, now: new Date(NOW.getTime() + 61_000) }),
    ).toMatchObject({ ok: false, code: 'CREDENTIAL_REVOKED' });
    expect(server.hits.get('/lists/cached')).toBe(2);
  });

  it('does not cache a token past its exp', async () => {
    const cachingChecker = createStatusListChecker();
    const uri = await publish('/lists/exp', { ttl: 3600, exp: NOW_SECONDS + 10 });
    const vpToken = await presentWithStatus(uri, 0);
    expect((await verify(pki, { vpToken, statusLists: cachingChecker })).ok).toBe(true);
    await publish('/lists/exp', { ttl: 3600, exp: NOW_SECONDS + 100 });
    expect(
      (await verify(pki, { vpToken, statusLists: cachingChecker, now: new Date(NOW.getTime() + 20_000) })).ok,
    ).toBe(true);
    expect(server.hits.get('/lists/exp')).toBe(2);
  });

  it('uses the injected fetch', async () => {
    const uri = 'https://status.example/lists/1';
    const token = await createStatusListToken({
      signingKey: pki.issuer.keys.privateKey,
      x5c: [pki.issuer.x5c, pki.intermediate.x5c],
      sub: uri,
      statuses: STATUSES,
      iat: NOW_SECONDS,
    });
    const requested: string[] = [];
    const injected = createStatusListChecker({
      fetch: async (input) => {
        requested.push(String(input));
        return new Response(token, { headers: { 'content-type': 'application/statuslist+jwt' } });
      },
    });
    expect((await verify(pki, { vpToken: await presentWithStatus(uri, 4), statusLists: injected })).ok).toBe(true);
    expect(requested).toEqual([uri]);
  });

  it('refuses loopback addresses when told to deny private addresses', async () => {
    const uri = await publish('/lists/private');
    const strict = createStatusListChecker({ denyPrivateAddresses: true });
    expect(await verify(pki, { vpToken: await presentWithStatus(uri, 0), statusLists: strict })).toMatchObject({
      ok: false,
      code: 'STATUS_LIST_UNAVAILABLE',
    });
  });

  it('refuses a status claim it cannot check (STATUS_LIST_UNAVAILABLE)', async () => {
    const issued = await issuePid(pki, holder, {
      claims: { status: { identifier_list: { id: '1', uri: 'https://x' } } },
    });
    expect(
      await verify(pki, { vpToken: { pid: [await presentPid(issued, holder)] }, statusLists: checker }),
    ).toMatchObject({ ok: false, code: 'STATUS_LIST_UNAVAILABLE' });
  });
});
