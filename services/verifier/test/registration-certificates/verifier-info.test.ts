import { describe, expect } from 'vitest';
import { decodeJwt } from 'jose';
import type { App } from '@tessera/service-kit';
import { ORG, type MemberCall } from '../support/management.js';
import { mdocPidQuery, pidQuery, registerVerifier, registeredDeskTest } from '../support/relying-party.js';
import { resolveAsWallet, resolveDcApiAsWallet } from '../support/wallet.js';

// `verifier_info` in every request object of a verifier with a registration certificate
// (issue 25, item 3; OpenID4VP 1.0 §5.1): `[{ format: "registration_cert", data: <the JWT>,
// credential_ids }]`, the ids naming the credential queries the registered intended use
// covers — by reference, re-signed for a wallet_nonce, and over the DC API (signed). A
// wallet library (@openid4vc/openid4vp) parses each request with its own schema.
const test = registeredDeskTest();
const ORIGIN = 'https://shop.example';

const create = (api: MemberCall, body: Record<string, unknown>, verifierId = 'desk') =>
  api('POST', `/v1/orgs/${ORG}/oid4vp/presentation?verifierId=${verifierId}`, body);

/** The request object a wallet fetches by reference (POST, with a wallet_nonce when given). */
async function fetchRequestObject(app: App, requestUri: string, walletNonce?: string) {
  const response = await app.inject({
    method: 'POST',
    url: new URL(requestUri).pathname,
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    payload: walletNonce ? `wallet_nonce=${walletNonce}` : '',
  });
  expect(response.statusCode).toBe(200);
  return decodeJwt(response.body);
}

describe('verifier_info', () => {
  test('a request by reference carries the registration certificate and the credential queries it covers, also when re-signed', async ({
    harness: h,
    api,
    registered,
  }) => {
    const query: { combine: string; credentials: unknown[] } = pidQuery([['given_name'], ['address', 'postal_code']]);
    query.credentials.push(...mdocPidQuery().credentials);
    const created = await create(api, { dcql: query, responseMode: 'direct_post.jwt' });
    expect(created.status, created.raw).toBe(201);
    const session = created.body.data;
    expect(session.overAsking).toBeUndefined();
    const expected = [
      { format: 'registration_cert', data: registered.registrationCertificate, credential_ids: ['pid', 'mdoc_pid'] },
    ];
    // The wallet library takes the request as valid (its schema of verifier_info included).
    const resolved = await resolveAsWallet({
      app: h.app,
      caPem: registered.ca.root.certificate.toString('pem'),
      authorizationRequestUri: session.authorizationRequestUri,
    });
    expect(resolved.authorizationRequestPayload.verifier_info).toEqual(expected);
    // A wallet_nonce gets a freshly signed object with exactly what was judged at creation.
    const resigned = await fetchRequestObject(h.app, session.requestUri, 'nonce-from-the-wallet');
    expect(resigned).toMatchObject({ wallet_nonce: 'nonce-from-the-wallet', verifier_info: expected });
  });

  test('a DC API signed request carries it in its payload', async ({ harness: h, api, registered }) => {
    const created = await create(api, {
      dcql: pidQuery(),
      responseMode: 'dc_api.jwt',
      expectedOrigins: [ORIGIN],
    });
    expect(created.status, created.raw).toBe(201);
    const request = created.body.data.dcApiRequest.data.request as string;
    expect(decodeJwt(request).verifier_info).toEqual([
      { format: 'registration_cert', data: registered.registrationCertificate, credential_ids: ['pid'] },
    ]);
    const resolved = await resolveDcApiAsWallet({
      app: h.app,
      caPem: registered.ca.root.certificate.toString('pem'),
      data: { request },
      origin: ORIGIN,
    });
    expect(resolved.authorizationRequestPayload.verifier_info).toHaveLength(1);
  });

  test('every OpenID4VP DC API protocol carries it: unsigned in its data, multi-signed in every protected header', async ({
    api,
    registered,
  }) => {
    const created = await create(api, {
      dcql: pidQuery(),
      responseMode: 'dc_api.jwt',
      expectedOrigins: [ORIGIN],
      dcApiProtocols: ['openid4vp-v1-unsigned', 'openid4vp-v1-multisigned', 'openid4vp-v1-signed'],
    });
    expect(created.status, created.raw).toBe(201);
    const expected = [
      { format: 'registration_cert', data: registered.registrationCertificate, credential_ids: ['pid'] },
    ];
    const [unsigned, multiSigned, signed] = created.body.data.dcApiRequests as Array<{
      protocol: string;
      data: Record<string, unknown>;
    }>;
    expect(unsigned!.protocol).toBe('openid4vp-v1-unsigned');
    expect(unsigned!.data.verifier_info).toEqual(expected);
    expect(multiSigned!.protocol).toBe('openid4vp-v1-multisigned');
    const { payload, signatures } = multiSigned!.data.request as {
      payload: string;
      signatures: Array<{ protected: string }>;
    };
    expect(JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'))).not.toHaveProperty('verifier_info');
    expect(signatures.length).toBeGreaterThan(0);
    for (const signature of signatures) {
      const header = JSON.parse(Buffer.from(signature.protected, 'base64url').toString('utf8')) as Record<
        string,
        unknown
      >;
      expect(header.verifier_info).toEqual(expected);
    }
    expect(decodeJwt(signed!.data.request as string).verifier_info).toEqual(expected);
  });

  test('a verifier without one sends none; removing it stops it for new sessions, not for sessions already made', async ({
    harness: h,
    api,
    registered,
  }) => {
    expect((await api('POST', `/v1/orgs/${ORG}/oid4vp/verifier`, { verifierId: 'kiosk' })).status).toBe(201);
    const unregistered = (await create(api, { dcql: pidQuery(), responseMode: 'direct_post' }, 'kiosk')).body.data;
    expect(await fetchRequestObject(h.app, unregistered.requestUri)).not.toHaveProperty('verifier_info');

    const before = (await create(api, { dcql: pidQuery(), responseMode: 'direct_post' })).body.data;
    expect(
      (
        await api('DELETE', `/v1/orgs/${ORG}/oid4vp/verifier/desk/registration-certificate`, undefined, {
          roles: ['owner'],
        })
      ).status,
    ).toBe(200);
    try {
      const after = (await create(api, { dcql: pidQuery(), responseMode: 'direct_post' })).body.data;
      expect(await fetchRequestObject(h.app, after.requestUri, 'n1')).not.toHaveProperty('verifier_info');
      // The session made before keeps what it was sent.
      expect((await fetchRequestObject(h.app, before.requestUri, 'n2')).verifier_info).toEqual([
        { format: 'registration_cert', data: registered.registrationCertificate, credential_ids: ['pid'] },
      ]);
    } finally {
      await registerVerifier(api, registered.registrationCertificate);
    }
  });

  test('an expired registration certificate is no longer sent, and nothing is judged against it', async ({
    harness: h,
    api,
    registered: _registered,
  }) => {
    // The support's certificate is valid for 180 days.
    h.clock.offsetMs = 181 * 86_400_000;
    try {
      const created = await create(api, { dcql: pidQuery([['birth_date']]), responseMode: 'direct_post' });
      expect(created.status, created.raw).toBe(201);
      expect(created.body.data.overAsking).toBeUndefined();
      expect(await fetchRequestObject(h.app, created.body.data.requestUri)).not.toHaveProperty('verifier_info');
      expect((await api('GET', `/v1/orgs/${ORG}/oid4vp/verifier/desk/registration-certificate`)).body.data.status).toBe(
        'expired',
      );
    } finally {
      h.clock.offsetMs = 0;
    }
  });
});
