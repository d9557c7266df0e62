import { decodeJwt, decodeProtectedHeader } from 'jose';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { captureLogger } from '@tessera/service-kit/testing';
import { generatePlatformCa } from '../../src/crypto/platform-ca.js';
import { presentationSessions, signingKeys } from '../../src/db/schema.js';
import { createHarness, type Harness } from '../support/harness.js';
import { listenToSessionEvents } from '../support/events.js';
import { ORG, sdJwtQuery } from '../support/dcql-queries.js';
import { resolveAsWallet } from '../support/wallet.js';

let h: Harness;
let log: ReturnType<typeof captureLogger>;
let listener: Awaited<ReturnType<typeof listenToSessionEvents>>;
beforeAll(async () => {
  log = captureLogger('verifier-test', 'info');
  h = await createHarness({ logger: log.logger });
  listener = await listenToSessionEvents(h.connectPeer);
  await send('POST', `/v1/orgs/${ORG}/oid4vp/verifier`, { verifierId: 'desk' });
});
afterAll(async () => {
  await listener.close();
  await h.close();
});

async function send(method: string, url: string, payload?: unknown, org = ORG) {
  return h.app.inject({ method: method as 'GET', url, headers: await h.auth(org), ...(payload !== undefined ? { payload: payload as object } : {}) });
}
const create = async (payload: Record<string, unknown> = {}, org = ORG) =>
  (await send('POST', `/v1/orgs/${org}/oid4vp/presentation?verifierId=desk`, { dcql: sdJwtQuery(), responseMode: 'direct_post', ...payload }, org)).json().data;
const path = (session: { authorizationRequestId: string }) => `/oid4vp/authorization-requests/${session.authorizationRequestId}`;
const form = { 'content-type': 'application/x-www-form-urlencoded' };

describe('wallet request endpoint', () => {
  it('GET answers the signed request object and moves the session to RequestUriRetrieved once', async () => {
    const session = await create();
    const response = await h.app.inject({ method: 'GET', url: path(session) });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toMatch(/^application\/oauth-authz-req\+jwt/);
    expect(response.headers['cache-control']).toBe('no-store');
    expect(decodeProtectedHeader(response.body).typ).toBe('oauth-authz-req+jwt');
    expect(decodeJwt(response.body)).toMatchObject({ client_id: session.clientId, nonce: session.nonce, state: session.payloadState, response_uri: session.responseUri });
    expect(await listener.waitFor(session.id, 'RequestUriRetrieved')).toEqual({ id: session.id, orgId: ORG, state: 'RequestUriRetrieved' });
    expect((await h.app.inject({ method: 'GET', url: path(session) })).statusCode).toBe(200);
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(listener.events.filter((e) => e.id === session.id && e.state === 'RequestUriRetrieved')).toHaveLength(1);
  });

  it('POST works without a body, without wallet_metadata, and ignores unknown form fields', async () => {
    const session = await create();
    expect((await h.app.inject({ method: 'POST', url: path(session), headers: form, payload: '' })).statusCode).toBe(200);
    expect((await h.app.inject({ method: 'POST', url: path(session) })).statusCode).toBe(200);
    const flattened = await h.app.inject({ method: 'POST', url: path(session), headers: form, payload: 'vp_formats_supported=%7B%7D&client_id_prefixes_supported=x509_hash' });
    expect(flattened.statusCode).toBe(200);
    expect(decodeJwt(flattened.body).wallet_nonce).toBeUndefined();
  });

  it('POST echoes wallet_nonce in a freshly signed object', async () => {
    const session = await create();
    const first = await h.app.inject({ method: 'POST', url: path(session), headers: form, payload: `wallet_metadata=${encodeURIComponent('{"alg_values_supported":["ES256"]}')}&wallet_nonce=qPmxiNFCR3QTm19POc8u` });
    expect(first.statusCode).toBe(200);
    expect(decodeJwt(first.body).wallet_nonce).toBe('qPmxiNFCR3QTm19POc8u');
    const second = await h.app.inject({ method: 'POST', url: path(session), headers: form, payload: 'wallet_nonce=another' });
    expect(decodeJwt(second.body).wallet_nonce).toBe('another');
    expect(second.body).not.toBe(first.body);
  });

  it('answers OAuth errors: bad wallet_metadata, unknown, expired and DC API sessions', async () => {
    const session = await create({ expiresInSeconds: 5 });
    const badMetadata = await h.app.inject({ method: 'POST', url: path(session), headers: form, payload: 'wallet_metadata=not-json' });
    expect(badMetadata.statusCode).toBe(400);
    expect(badMetadata.json()).toEqual({ error: 'invalid_request', error_description: expect.any(String) });

    const unknown = await h.app.inject({ method: 'POST', url: '/oid4vp/authorization-requests/does-not-exist', headers: form, payload: '' });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json()).toEqual({ error: 'invalid_request_uri', error_description: expect.any(String) });

    h.clock.offsetMs = 6000;
    try {
      const expired = await h.app.inject({ method: 'GET', url: path(session) });
      expect(expired.statusCode).toBe(400);
      expect(expired.json()).toEqual({ error: 'invalid_request_uri', error_description: 'The authorization request has expired.' });
      expect((await send('GET', `/v1/orgs/${ORG}/oid4vp/verifier-presentation?id=${session.id}`)).json().data).toMatchObject({ state: 'Error', error: { code: 'SESSION_EXPIRED' } });
      await listener.waitFor(session.id, 'Error');
    } finally {
      h.clock.offsetMs = 0;
    }

    const answered = await create();
    await h.testDb.database.db.update(presentationSessions).set({ state: 'Error', errorCode: 'WALLET_ERROR', errorMessage: 'declined' }).where(eq(presentationSessions.id, answered.id));
    const closed = await h.app.inject({ method: 'GET', url: path(answered) });
    expect(closed.statusCode).toBe(400);
    expect(closed.json()).toEqual({ error: 'invalid_request_uri', error_description: 'The authorization request is no longer open.' });

    const dcApi = await create({ responseMode: 'dc_api', expectedOrigins: ['https://rp.example'] });
    const refused = await h.app.inject({ method: 'GET', url: path(dcApi) });
    expect(refused.statusCode).toBe(400);
    expect(refused.json().error).toBe('invalid_request_uri');
  });

  it('is refused by a wallet that trusts another CA', async () => {
    const session = await create();
    const otherCa = await generatePlatformCa({ now: new Date() });
    await expect(resolveAsWallet({ app: h.app, caPem: otherCa.certificatePem, authorizationRequestUri: session.authorizationRequestUri })).rejects.toThrow();
  });

  it('serves the platform CA as PEM, a CA certificate', async () => {
    const response = await h.app.inject({ method: 'GET', url: '/oid4vp/platform-ca.pem' });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toMatch(/^application\/x-pem-file/);
    expect(response.body).toBe(h.ca.certificatePem);
    expect(response.body).toMatch(/^-----BEGIN CERTIFICATE-----/);
  });

  it('fails loudly (500, logged) when a stored key cannot be decrypted, and never makes a new one', async () => {
    const org = 'org-broken';
    await send('POST', `/v1/orgs/${org}/oid4vp/verifier`, { verifierId: 'desk' }, org);
    const session = await create({}, org);
    const db = h.testDb.database.db;
    const [before] = await db.select().from(signingKeys).where(eq(signingKeys.orgId, org));
    const privateJwk = JSON.parse(h.keyEncryptionKey.open(before!.encryptedPrivateKey, `signing-key:${org}:P256`)) as { d: string };
    await db.update(signingKeys).set({ encryptedPrivateKey: h.keyEncryptionKey.seal('{}', 'some-other-context') }).where(eq(signingKeys.orgId, org));

    const wallet = await h.app.inject({ method: 'GET', url: path(session) });
    expect(wallet.statusCode).toBe(500);
    expect(wallet.json()).toEqual({ error: 'server_error', error_description: expect.any(String) });
    const management = await send('POST', `/v1/orgs/${org}/oid4vp/presentation?verifierId=desk`, { dcql: sdJwtQuery(), responseMode: 'direct_post' }, org);
    expect(management.statusCode).toBe(500);
    expect(management.json()).toMatchObject({ code: 'INTERNAL' });
    expect(management.body).not.toMatch(/stack|KEY_ENCRYPTION_KEY/);
    const [after] = await db.select().from(signingKeys).where(eq(signingKeys.orgId, org));
    expect(after!.publicJwk).toEqual(before!.publicJwk);
    expect(log.text()).toMatch(/KEY_ENCRYPTION_KEY/);
    expect(log.text()).not.toContain(privateJwk.d);
  });
});

describe('rate limit on public endpoints', () => {
  let limited: Harness;
  beforeAll(async () => {
    limited = await createHarness({ config: { WALLET_RATE_LIMIT_MAX: '2', WALLET_RATE_LIMIT_WINDOW_MS: '60000' } });
  });
  afterAll(() => limited.close());

  it('answers 429 with Retry-After and the error body once a client address is over the limit', async () => {
    const url = '/oid4vp/authorization-requests/unknown';
    expect((await limited.app.inject({ method: 'GET', url })).statusCode).toBe(404);
    expect((await limited.app.inject({ method: 'GET', url })).statusCode).toBe(404);
    const over = await limited.app.inject({ method: 'GET', url });
    expect(over.statusCode).toBe(429);
    expect(Number(over.headers['retry-after'])).toBeGreaterThan(0);
    expect(over.json()).toEqual({ error: 'temporarily_unavailable', error_description: expect.stringMatching(/retry after/) });
    const elsewhere = await limited.app.inject({ method: 'GET', url, remoteAddress: '10.0.0.9' });
    expect(elsewhere.statusCode).toBe(404);
    const ca = '/oid4vp/platform-ca.pem';
    await limited.app.inject({ method: 'GET', url: ca, remoteAddress: '10.0.0.7' });
    await limited.app.inject({ method: 'GET', url: ca, remoteAddress: '10.0.0.7' });
    const caOver = await limited.app.inject({ method: 'GET', url: ca, remoteAddress: '10.0.0.7' });
    expect(caOver.statusCode).toBe(429);
    expect(caOver.json()).toMatchObject({ statusCode: 429, code: 'RATE_LIMITED' });
  });
});
