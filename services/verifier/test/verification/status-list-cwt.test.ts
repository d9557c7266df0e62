import type { webcrypto } from 'node:crypto';
import { deflateSync } from 'node:zlib';
import { cborEncode } from '@owf/mdoc';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServiceMetrics } from '@tessera/service-kit';
import { metricSample } from '@tessera/service-kit/testing';
import { createVerifierMetrics } from '../../src/metrics/verifier-metrics.js';
import { createStatusListChecker } from '../../src/state/status-list-checker.js';
import type { StatusListChecker, VerifyPresentationOptions } from '../../src/verification/index.js';
import { CLIENT_ID, createPki, NONCE, NOW, NOW_SECONDS, RESPONSE_URI, type Pki } from './support/fixtures.js';
import { issueMdoc, MDL_DOCTYPE, MDL_NAMESPACE, presentMdoc } from './support/mdoc.js';
import { createCa, createLeaf } from './support/pki.js';
import { issuePid, presentPid, verify, type Holder } from './support/sd-jwt-scenario.js';
import { didJwk, generateEs256, issueSdJwtVc } from './support/sd-jwt.js';
import { Claim, createStatusListCwt, Label, type CreateStatusListCwtOptions } from './support/status-list-cwt.js';
import { createStatusListToken, startStatusListServer, type StatusListServer } from './support/status-list-server.js';

// Status List Tokens in CWT form (application/statuslist+cwt, a COSE_Sign1 over CWT
// claims), checked by the engine and the replica's checker under the very rules a
// JWT list has (test/verification/status-list.test.ts), each rule once more for this
// form. Lists are written with @owf/mdoc's COSE_Sign1 (support/status-list-cwt.ts) and
// served over real HTTP by a node:http server on 127.0.0.1 with the CWT media type.

const VALID = 0;
const INVALID = 1;
const SUSPENDED = 2;
const STATUSES = [VALID, INVALID, SUSPENDED, 3, VALID, VALID];
const CWT = 'application/statuslist+cwt';
const DAY = 86_400_000;

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

/** Serves a CWT list at `path` signed by the PKI's issuer (x5chain leaf + intermediate, unprotected) unless told otherwise. */
async function publish(path: string, overrides: Partial<CreateStatusListCwtOptions> = {}) {
  const uri = `${server.baseUrl}${path}`;
  server.routes.set(path, {
    contentType: CWT,
    body: await createStatusListCwt({
      signingKey: pki.issuer.keys.privateKey,
      x5chain: [pki.issuer.der, pki.intermediate.der],
      sub: uri,
      statuses: STATUSES,
      iat: NOW_SECONDS - 60,
      ...overrides,
    }),
  });
  return uri;
}

/** An SD-JWT VC of the PKI's issuer whose status is entry `idx` of `uri`. */
async function pidWithStatus(uri: string, idx: number) {
  const issued = await issuePid(pki, holder, {
    claims: { iat: NOW_SECONDS - 3600, exp: NOW_SECONDS + 86_400, status: { status_list: { idx, uri } } },
  });
  return { pid: [await presentPid(issued, holder)] };
}

async function refusal(uri: string, idx = 0, statusLists = checker) {
  const result = await verify(pki, { vpToken: await pidWithStatus(uri, idx), statusLists });
  expect(result).toMatchObject({ ok: false, code: 'STATUS_LIST_UNAVAILABLE' });
  return (result as { message: string }).message;
}

describe('a CWT status list, read by an SD-JWT VC', () => {
  it('passes a VALID entry and names the form checked (format cwt)', async () => {
    const uri = await publish('/cwt/valid');
    const result = await verify(pki, { vpToken: await pidWithStatus(uri, 0), statusLists: checker });
    expect(result).toMatchObject({
      ok: true,
      presentations: [{ status: { uri, idx: 0, status: 'VALID', format: 'cwt' } }],
    });
    // The fetch asked for either form.
    expect(server.accepts.get('/cwt/valid')).toBe('application/statuslist+jwt, application/statuslist+cwt');
  });

  it('maps INVALID to CREDENTIAL_REVOKED, SUSPENDED to CREDENTIAL_SUSPENDED and other values to CREDENTIAL_REVOKED', async () => {
    const uri = await publish('/cwt/mixed');
    for (const [idx, code] of [
      [1, 'CREDENTIAL_REVOKED'],
      [2, 'CREDENTIAL_SUSPENDED'],
      [3, 'CREDENTIAL_REVOKED'],
    ] as const) {
      expect(await verify(pki, { vpToken: await pidWithStatus(uri, idx), statusLists: checker })).toMatchObject({
        ok: false,
        code,
      });
    }
  });

  it.each([1, 4, 8])('reads %i-bit lists', async (bits) => {
    const statuses = [VALID, INVALID, VALID, SUSPENDED].map((status) => status & ((1 << bits) - 1));
    const uri = await publish(`/cwt/bits-${bits}`, { bits, statuses });
    expect((await verify(pki, { vpToken: await pidWithStatus(uri, 2), statusLists: checker })).ok).toBe(true);
    expect(await verify(pki, { vpToken: await pidWithStatus(uri, 1), statusLists: checker })).toMatchObject({
      code: 'CREDENTIAL_REVOKED',
    });
  });

  it('finds x5chain in the protected header too, and a single certificate as a byte string', async () => {
    const uri = await publish('/cwt/protected-chain', { x5chainIn: 'protected' });
    expect((await verify(pki, { vpToken: await pidWithStatus(uri, 0), statusLists: checker })).ok).toBe(true);
    // The leaf alone validates too: the intermediate is then missing from the path.
    const leafOnly = await publish('/cwt/leaf-only', { x5chain: [pki.issuer.der] });
    expect(await refusal(leafOnly)).toContain('not trusted');
  });

  it.each([
    ['an unreachable server', 'fetch failed', async () => 'http://127.0.0.1:1/cwt/none'],
    ['a 404', 'answered 404', async () => `${server.baseUrl}/cwt/missing`],
    [
      'a body over the cap',
      'larger than',
      async () => {
        server.routes.set('/cwt/huge', { contentType: CWT, body: Buffer.alloc(10_000, 0xd2) });
        return `${server.baseUrl}/cwt/huge`;
      },
    ],
    [
      'a slow server',
      'timeout',
      async () => {
        const uri = await publish('/cwt/slow');
        server.routes.get('/cwt/slow')!.delayMs = 2000;
        return uri;
      },
    ],
    ['a sub for another list', 'sub', async () => publish('/cwt/sub', { sub: `${server.baseUrl}/cwt/other` })],
    [
      'a token signed by an untrusted key',
      'not trusted',
      async () => {
        const rogue = await createLeaf('CN=Rogue Status Signer', await createCa('CN=Rogue Root'));
        return publish('/cwt/rogue', { signingKey: rogue.keys.privateKey, x5chain: [rogue.der] });
      },
    ],
    [
      'a token whose signature does not match its x5chain',
      'signature is invalid',
      async () => publish('/cwt/forged', { signingKey: (await generateEs256()).privateKey }),
    ],
    [
      'a token naming no signer',
      'neither in an x5c chain nor identified by a DID',
      async () => publish('/cwt/no-signer', { x5chain: undefined, kid: '12' }),
    ],
    ['an expired token', 'expired', async () => publish('/cwt/expired', { exp: NOW_SECONDS - 1 })],
    ['the wrong typ', 'typ', async () => publish('/cwt/typ', { typ: 'application/cwt' })],
    ['no typ', 'typ', async () => publish('/cwt/no-typ', { typ: null })],
    [
      'the typ in the unprotected header',
      'must be protected',
      async () => publish('/cwt/typ-unprotected', { typIn: 'unprotected' }),
    ],
    [
      'the algorithm in the unprotected header',
      'must be protected',
      async () =>
        publish('/cwt/alg-unprotected', {
          protectedHeader: new Map([[Label.ALG, undefined]]),
          unprotectedHeader: new Map([[Label.ALG, -7]]),
        }),
    ],
    [
      'an algorithm that does not fit the key',
      'does not fit',
      async () => publish('/cwt/alg-key', { protectedHeader: new Map([[Label.ALG, -35]]) }),
    ],
    [
      'an unknown algorithm',
      'not accepted',
      async () => publish('/cwt/alg', { protectedHeader: new Map([[1, -65535]]) }),
    ],
    [
      'x5chain in both header buckets',
      'in both the protected and the unprotected header',
      async () => publish('/cwt/both-buckets', { x5chainIn: 'both' }),
    ],
    ['an untagged COSE_Sign1', 'untagged', async () => publish('/cwt/untagged', { tag: null })],
    ['a token wrapped in the CWT tag (61)', 'tagged 61', async () => publish('/cwt/tag-61', { tag: 61 })],
    [
      'a payload that repeats a claim (two readers could read two sub values)',
      'not one well-formed CBOR item',
      async () => {
        const path = '/cwt/duplicate-sub';
        const uri = `${server.baseUrl}${path}`;
        // A map of three entries whose first two both have key 2 (sub): written byte by byte.
        const payload = Buffer.concat([
          Buffer.from([0xa3]),
          cborEncode(Claim.SUB),
          cborEncode(uri),
          cborEncode(Claim.SUB),
          cborEncode(`${server.baseUrl}/cwt/someone-else`),
          cborEncode(Claim.IAT),
          cborEncode(NOW_SECONDS),
        ]);
        return publish(path, { payload });
      },
    ],
    ['a token without iat', 'no iat', async () => publish('/cwt/no-iat', { iat: null })],
    ['a token issued in the future', 'in the future', async () => publish('/cwt/future', { iat: NOW_SECONDS + 3600 })],
    [
      'a token older than its ttl when fetched',
      'older than its ttl',
      async () => publish('/cwt/stale', { iat: NOW_SECONDS - 1000, ttl: 600 }),
    ],
    ['a ttl that is not positive', 'ttl', async () => publish('/cwt/ttl', { ttl: 0 })],
    [
      'lst as text where the CWT form carries bytes',
      'no status_list with bits and lst',
      async () => publish('/cwt/lst-text', { lst: deflateSync(Buffer.alloc(2)).toString('base64url') }),
    ],
    ['bits outside 1, 2, 4, 8', 'bits must be 1, 2, 4 or 8', async () => publish('/cwt/bits-3', { bits: 3 })],
    ['an index outside the list', 'outside', async () => publish('/cwt/short', { statuses: [VALID] })],
    [
      'lst that is not a zlib stream',
      'incorrect header check',
      async () => publish('/cwt/not-zlib', { lst: new Uint8Array([1, 2, 3, 4]) }),
    ],
  ])('refuses %s (STATUS_LIST_UNAVAILABLE)', async (_name, reason, uriOf) => {
    expect(await refusal(await uriOf(), 5)).toContain(reason);
  });

  it('refuses a list that inflates beyond the decompression cap', async () => {
    const small = createStatusListChecker({ timeoutMs: 500, maxInflatedBytes: 1024 });
    // 8192 zero bytes deflate to a few dozen: well under the body cap, far over the inflate cap.
    const uri = await publish('/cwt/bomb', { lst: new Uint8Array(deflateSync(Buffer.alloc(8192))) });
    expect(await refusal(uri, 0, small)).toContain('larger than 1024 bytes');
  });

  it('takes the Content-Type at its word: CWT bytes served as statuslist+jwt, or a JWT served as +cwt, are refused', async () => {
    const cwtUri = await publish('/cwt/as-jwt');
    server.routes.get('/cwt/as-jwt')!.contentType = 'application/statuslist+jwt';
    await refusal(cwtUri);
    const jwtPath = '/cwt/jwt-as-cwt';
    const jwtUri = `${server.baseUrl}${jwtPath}`;
    server.routes.set(jwtPath, {
      contentType: CWT,
      body: await createStatusListToken({
        signingKey: pki.issuer.keys.privateKey,
        x5c: [pki.issuer.x5c, pki.intermediate.x5c],
        sub: jwtUri,
        statuses: STATUSES,
        iat: NOW_SECONDS,
      }),
    });
    expect(await refusal(jwtUri)).toContain('CBOR');
    // With parameters and another case the media type is still the CWT form's.
    const uri = await publish('/cwt/params');
    server.routes.get('/cwt/params')!.contentType = 'Application/StatusList+CWT; charset=binary';
    expect((await verify(pki, { vpToken: await pidWithStatus(uri, 0), statusLists: checker })).ok).toBe(true);
  });

  it('refuses a token signed under a different trust than the credential', async () => {
    const otherRoot = await createCa('CN=Other Trusted Root');
    const otherSigner = await createLeaf('CN=Other Status Signer', otherRoot);
    const uri = await publish('/cwt/other-anchor', {
      signingKey: otherSigner.keys.privateKey,
      x5chain: [otherSigner.der],
    });
    const result = await verify(pki, {
      vpToken: await pidWithStatus(uri, 0),
      statusLists: checker,
      trust: { certificates: [pki.root.pem, otherRoot.pem], dids: [] },
    });
    expect(result).toMatchObject({ ok: false, code: 'STATUS_LIST_UNAVAILABLE' });
    expect((result as { message: string }).message).toContain('another trust anchor');
  });

  it("verifies a DID issuer's CWT list signed by that DID (kid), and refuses one signed by another DID", async () => {
    const issuerKey = await generateEs256();
    const otherKey = await generateEs256();
    const did = didJwk(issuerKey.publicJwk);
    const otherDid = didJwk(otherKey.publicJwk);
    const withList = async (path: string, signingKey: webcrypto.CryptoKey, kid: string) => {
      const uri = await publish(path, { signingKey, x5chain: undefined, kid, iat: NOW_SECONDS });
      const issued = await issueSdJwtVc({
        signingKey: issuerKey.privateKey,
        kid: `${did}#0`,
        claims: { status: { status_list: { idx: 2, uri } } },
        disclosable: { given_name: 'Erika', age_over_18: true },
        holderPublicJwk: holder.publicJwk,
      });
      return verify(pki, {
        vpToken: { pid: [await presentPid(issued, holder)] },
        statusLists: checker,
        trust: { certificates: [], dids: [did, otherDid] },
      });
    };
    expect(await withList('/cwt/did', issuerKey.privateKey, `${did}#0`)).toMatchObject({
      ok: false,
      code: 'CREDENTIAL_SUSPENDED',
    });
    const other = await withList('/cwt/other-did', otherKey.privateKey, `${otherDid}#0`);
    expect(other).toMatchObject({ ok: false, code: 'STATUS_LIST_UNAVAILABLE' });
    expect((other as { message: string }).message).toContain(`not by the credential's issuer ${did}`);
  });

  it('counts fetches of CWT lists like any other (tessera_verifier_status_list_fetches_total)', async () => {
    const metrics = createServiceMetrics({ service: 'verifier' });
    const counting = createStatusListChecker({ timeoutMs: 500, metrics: createVerifierMetrics(metrics.registry) });
    const vpToken = await pidWithStatus(await publish('/cwt/counted', { ttl: 60 }), 0);
    expect((await verify(pki, { vpToken, statusLists: counting })).ok).toBe(true);
    expect((await verify(pki, { vpToken, statusLists: counting })).ok).toBe(true);
    const scrape = await metrics.registry.metrics();
    expect(metricSample(scrape, 'tessera_verifier_status_list_fetches_total', { result: 'ok' })).toBe(1);
  });

  it('caches a CWT list until its ttl, never past its exp, and fetches it again afterwards', async () => {
    const caching = createStatusListChecker();
    const uri = await publish('/cwt/cached', { ttl: 60 });
    const vpToken = await pidWithStatus(uri, 0);
    for (const offset of [0, 30_000]) {
      expect((await verify(pki, { vpToken, statusLists: caching, now: new Date(NOW.getTime() + offset) })).ok).toBe(
        true,
      );
    }
    expect(server.hits.get('/cwt/cached')).toBe(1);
    await publish('/cwt/cached', { ttl: 60, statuses: [INVALID], iat: NOW_SECONDS + 61 });
    expect(await verify(pki, { vpToken, statusLists: caching, now: new Date(NOW.getTime() + 61_000) })).toMatchObject({
      ok: false,
      code: 'CREDENTIAL_REVOKED',
    });
    expect(server.hits.get('/cwt/cached')).toBe(2);

    const expiring = await publish('/cwt/exp', { ttl: 3600, exp: NOW_SECONDS + 10 });
    const expiringToken = await pidWithStatus(expiring, 0);
    expect((await verify(pki, { vpToken: expiringToken, statusLists: caching })).ok).toBe(true);
    await publish('/cwt/exp', { ttl: 3600, exp: NOW_SECONDS + 100 });
    const later = new Date(NOW.getTime() + 20_000);
    expect((await verify(pki, { vpToken: expiringToken, statusLists: caching, now: later })).ok).toBe(true);
    expect(server.hits.get('/cwt/exp')).toBe(2);
  });

  it('refuses loopback addresses when told to deny private addresses', async () => {
    const uri = await publish('/cwt/private');
    const strict = createStatusListChecker({ denyPrivateAddresses: true });
    expect(await refusal(uri, 0, strict)).toContain('loopback');
    expect(server.hits.get('/cwt/private')).toBeUndefined();
  });
});

describe('an mdoc whose MSO names a status list, in either form', () => {
  const QUERY = {
    combine: 'all',
    credentials: [
      {
        id: 'mdl',
        format: 'mso_mdoc',
        meta: { doctype_value: MDL_DOCTYPE },
        claims: [{ path: [MDL_NAMESPACE, 'family_name'] }],
      },
    ],
  };

  /** An mDL of the PKI's document signer whose MSO `status` is entry `idx` of `uri`. */
  async function mdlWithStatus(uri: string, idx: number) {
    const issuerSigned = await issueMdoc({
      namespaces: { [MDL_NAMESPACE]: { family_name: 'Mustermann' } },
      signerPrivateJwk: pki.documentSignerJwk,
      certificates: [pki.documentSigner.der],
      devicePublicJwk: holder.publicJwk,
      validFrom: new Date(NOW.getTime() - DAY),
      validUntil: new Date(NOW.getTime() + 365 * DAY),
      status: { status_list: { idx, uri } },
    });
    const presentation = await presentMdoc({
      issuerSigned,
      devicePrivateJwk: holder.privateJwk,
      handover: { kind: 'redirect', clientId: CLIENT_ID, responseUri: RESPONSE_URI, nonce: NONCE },
    });
    const options: Partial<VerifyPresentationOptions> = {
      vpToken: { mdl: [presentation] },
      dcqlQuery: QUERY,
      statusLists: checker,
    };
    return verify(pki, options);
  }

  /** A list of `format` signed by the document signer itself (x5chain in the unprotected header, as mdoc issuers do). */
  async function documentSignerList(path: string, format: 'jwt' | 'cwt') {
    const uri = `${server.baseUrl}${path}`;
    const common = { sub: uri, statuses: STATUSES, iat: NOW_SECONDS - 60 };
    server.routes.set(
      path,
      format === 'cwt'
        ? {
            contentType: CWT,
            body: await createStatusListCwt({
              ...common,
              signingKey: pki.documentSigner.keys.privateKey,
              x5chain: [pki.documentSigner.der],
            }),
          }
        : {
            body: await createStatusListToken({
              ...common,
              signingKey: pki.documentSigner.keys.privateKey,
              x5c: [pki.documentSigner.x5c],
            }),
          },
    );
    return uri;
  }

  it.each(['cwt', 'jwt'] as const)(
    'a %s list: VALID verifies (the result names the form), INVALID is revoked, SUSPENDED suspended',
    async (format) => {
      const uri = await documentSignerList(`/mdoc/${format}`, format);
      expect(await mdlWithStatus(uri, 0)).toMatchObject({
        ok: true,
        presentations: [{ format: 'mso_mdoc', status: { uri, idx: 0, status: 'VALID', format } }],
      });
      expect(await mdlWithStatus(uri, 1)).toMatchObject({ ok: false, code: 'CREDENTIAL_REVOKED' });
      expect(await mdlWithStatus(uri, 2)).toMatchObject({ ok: false, code: 'CREDENTIAL_SUSPENDED' });
    },
  );

  it("refuses a CWT list signed by another issuer's document signer under the same IACA", async () => {
    const neighbour = await createLeaf('CN=Neighbour Document Signer,O=Tessera Tests,C=US', pki.iaca);
    const uri = await publish('/mdoc/neighbour', { signingKey: neighbour.keys.privateKey, x5chain: [neighbour.der] });
    const result = await mdlWithStatus(uri, 0);
    expect(result).toMatchObject({ ok: false, code: 'STATUS_LIST_UNAVAILABLE' });
    expect((result as { message: string }).message).toContain('Neighbour Document Signer');
  });
});
