import { decodeJwt, decodeProtectedHeader } from 'jose';
import { eq } from 'drizzle-orm';
import { describe, expect } from 'vitest';
import { captureLogger } from '@tessera/service-kit/testing';
import { generatePlatformCa } from '../../src/crypto/platform-ca.js';
// A stored key that no longer opens is a state no use case produces: the test alters the signing_keys row itself.
import { signingKeys } from '../../src/db/schema.js';
import { sdJwtQuery } from '../support/dcql-queries.js';
import { harnessTest } from '../support/fixtures.js';
import { ORG } from '../support/management.js';
import { resolveAsWallet } from '../support/wallet.js';

const log = captureLogger('verifier-test', 'info');

// `create(body, org)`: a session of the organisation's verifier `desk` (ORG's unless told) over direct_post unless told.
const test = harnessTest({ logger: log.logger }).extend(
  'create',
  { scope: 'file' },
  ({ api, desk }) =>
    async (payload: Record<string, unknown> = {}, org = ORG) =>
      (
        await api(
          'POST',
          `/v1/orgs/${org}/oid4vp/presentation?verifierId=${desk}`,
          { dcql: sdJwtQuery(), responseMode: 'direct_post', ...payload },
          { org },
        )
      ).body.data,
);
const path = (session: { authorizationRequestId: string }) =>
  `/oid4vp/authorization-requests/${session.authorizationRequestId}`;
const form = { 'content-type': 'application/x-www-form-urlencoded' };

describe('wallet request endpoint', () => {
  test('GET answers the signed request object and moves the session to RequestUriRetrieved once', async ({
    harness: h,
    sessionEvents,
    create,
  }) => {
    const session = await create();
    const response = await h.call('GET', path(session));
    expect(response.status).toBe(200);
    expect(response.headers['content-type']).toMatch(/^application\/oauth-authz-req\+jwt/);
    expect(response.headers['cache-control']).toBe('no-store');
    expect(decodeProtectedHeader(response.raw).typ).toBe('oauth-authz-req+jwt');
    expect(decodeJwt(response.raw)).toMatchObject({
      client_id: session.clientId,
      nonce: session.nonce,
      state: session.payloadState,
      response_uri: session.responseUri,
    });
    expect(await sessionEvents.waitFor(session.id, 'RequestUriRetrieved')).toEqual({
      id: session.id,
      orgId: ORG,
      state: 'RequestUriRetrieved',
    });
    expect((await h.call('GET', path(session))).status).toBe(200);
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(sessionEvents.of(session.id, 'RequestUriRetrieved')).toHaveLength(1);
  });

  test('a plain fetch serves the object signed once, at creation: the same bytes every time', async ({
    harness: h,
    create,
  }) => {
    const session = await create();
    const first = await h.call('GET', path(session));
    const again = await h.call('GET', path(session));
    const posted = await h.app.inject({ method: 'POST', url: path(session), headers: form, payload: '' });
    expect(first.status).toBe(200);
    expect(again.raw).toBe(first.raw);
    expect(posted.body).toBe(first.raw);
  });

  test('POST works without a body, without wallet_metadata, and ignores unknown form fields', async ({
    harness: h,
    create,
  }) => {
    const session = await create();
    expect((await h.app.inject({ method: 'POST', url: path(session), headers: form, payload: '' })).statusCode).toBe(
      200,
    );
    expect((await h.app.inject({ method: 'POST', url: path(session) })).statusCode).toBe(200);
    const flattened = await h.app.inject({
      method: 'POST',
      url: path(session),
      headers: form,
      payload: 'vp_formats_supported=%7B%7D&client_id_prefixes_supported=x509_hash',
    });
    expect(flattened.statusCode).toBe(200);
    expect(decodeJwt(flattened.body).wallet_nonce).toBeUndefined();
  });

  test('POST echoes wallet_nonce in a freshly signed object', async ({ harness: h, create }) => {
    const session = await create();
    const first = await h.app.inject({
      method: 'POST',
      url: path(session),
      headers: form,
      payload: `wallet_metadata=${encodeURIComponent('{"alg_values_supported":["ES256"]}')}&wallet_nonce=qPmxiNFCR3QTm19POc8u`,
    });
    expect(first.statusCode).toBe(200);
    expect(decodeJwt(first.body).wallet_nonce).toBe('qPmxiNFCR3QTm19POc8u');
    const second = await h.app.inject({
      method: 'POST',
      url: path(session),
      headers: form,
      payload: 'wallet_nonce=another',
    });
    expect(decodeJwt(second.body).wallet_nonce).toBe('another');
    expect(second.body).not.toBe(first.body);
  });

  test('answers OAuth errors: bad wallet_metadata, unknown, expired and DC API sessions', async ({
    harness: h,
    api,
    sessionEvents,
    create,
  }) => {
    const session = await create({ expiresInSeconds: 5 });
    const badMetadata = await h.app.inject({
      method: 'POST',
      url: path(session),
      headers: form,
      payload: 'wallet_metadata=not-json',
    });
    expect(badMetadata.statusCode).toBe(400);
    expect(badMetadata.json()).toEqual({ error: 'invalid_request', error_description: expect.any(String) });

    const unknown = await h.app.inject({
      method: 'POST',
      url: '/oid4vp/authorization-requests/does-not-exist',
      headers: form,
      payload: '',
    });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json()).toEqual({ error: 'invalid_request_uri', error_description: expect.any(String) });

    h.clock.offsetMs = 6000;
    try {
      const expired = await h.call('GET', path(session));
      expect(expired.status).toBe(400);
      expect(expired.body).toEqual({
        error: 'invalid_request_uri',
        error_description: 'The authorization request has expired.',
      });
      expect(
        (await api('GET', `/v1/orgs/${ORG}/oid4vp/verifier-presentation?id=${session.id}`)).body.data,
      ).toMatchObject({ state: 'Error', error: { code: 'SESSION_EXPIRED' } });
      await sessionEvents.waitFor(session.id, 'Error');
    } finally {
      h.clock.offsetMs = 0;
    }

    // Answered: the wallet declined, at its response_uri.
    const answered = await create();
    const declined = await h.app.inject({
      method: 'POST',
      url: `/oid4vp/authorization-responses/${answered.authorizationRequestId}`,
      headers: form,
      payload: new URLSearchParams({
        error: 'access_denied',
        error_description: 'declined',
        state: answered.payloadState,
      }).toString(),
    });
    expect(declined.statusCode).toBe(200);
    const closed = await h.call('GET', path(answered));
    expect(closed.status).toBe(400);
    expect(closed.body).toEqual({
      error: 'invalid_request_uri',
      error_description: 'The authorization request is no longer open.',
    });

    const dcApi = await create({ responseMode: 'dc_api', expectedOrigins: ['https://rp.example'] });
    const refused = await h.call('GET', path(dcApi));
    expect(refused.status).toBe(400);
    expect(refused.body.error).toBe('invalid_request_uri');
  });

  test('is refused by a wallet that trusts another CA', async ({ harness: h, create }) => {
    const session = await create();
    const otherCa = await generatePlatformCa({ now: new Date() });
    await expect(
      resolveAsWallet({
        app: h.app,
        caPem: otherCa.certificatePem,
        authorizationRequestUri: session.authorizationRequestUri,
      }),
    ).rejects.toThrow();
  });

  test('serves the platform CA as PEM, a CA certificate', async ({ harness: h }) => {
    const response = await h.call('GET', '/oid4vp/platform-ca.pem');
    expect(response.status).toBe(200);
    expect(response.headers['content-type']).toMatch(/^application\/x-pem-file/);
    expect(response.raw).toBe(h.ca.certificatePem);
    expect(response.raw).toMatch(/^-----BEGIN CERTIFICATE-----/);
  });

  test('fails loudly (500, logged) when a stored key cannot be decrypted, and never makes a new one', async ({
    harness: h,
    api,
    create,
  }) => {
    // The object signed at creation is still served; what needs the key now (a wallet_nonce to echo, a new session) fails.
    const org = 'org-broken';
    await api('POST', `/v1/orgs/${org}/oid4vp/verifier`, { verifierId: 'desk' }, { org });
    const session = await create({}, org);
    const db = h.testDb.database.db;
    const [before] = await db.select().from(signingKeys).where(eq(signingKeys.orgId, org));
    const privateJwk = JSON.parse(h.keyEncryptionKey.open(before!.encryptedPrivateKey, `signing-key:${org}:P256`)) as {
      d: string;
    };
    await db
      .update(signingKeys)
      .set({ encryptedPrivateKey: h.keyEncryptionKey.seal('{}', 'some-other-context') })
      .where(eq(signingKeys.orgId, org));

    expect((await h.call('GET', path(session))).status).toBe(200);
    const fresh = await h.app.inject({
      method: 'POST',
      url: path(session),
      headers: form,
      payload: 'wallet_nonce=needs-a-signature-now',
    });
    expect(fresh.statusCode).toBe(500);
    expect(JSON.parse(fresh.body)).toEqual({ error: 'server_error', error_description: expect.any(String) });
    const management = await api(
      'POST',
      `/v1/orgs/${org}/oid4vp/presentation?verifierId=desk`,
      { dcql: sdJwtQuery(), responseMode: 'direct_post' },
      { org },
    );
    expect(management.status).toBe(500);
    expect(management.body).toMatchObject({ code: 'INTERNAL' });
    expect(management.raw).not.toMatch(/stack|KEY_ENCRYPTION_KEY/);
    const [after] = await db.select().from(signingKeys).where(eq(signingKeys.orgId, org));
    expect(after!.publicJwk).toEqual(before!.publicJwk);
    expect(log.text()).toMatch(/KEY_ENCRYPTION_KEY/);
    expect(log.text()).not.toContain(privateJwk.d);
  });
});
