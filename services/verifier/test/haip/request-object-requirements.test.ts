import { X509Certificate } from 'node:crypto';
import { decodeJwt, decodeProtectedHeader } from 'jose';
import { describe, expect } from 'vitest';
import { bothQuery } from '../support/dcql-queries.js';
import { harnessTest } from '../support/fixtures.js';
import { ORG } from '../support/management.js';

// Verifier-side requirements of OpenID4VP 1.0 §5 and §8.3 and HAIP 1.0 §5 on the request objects the
// service hands wallets, checked on what a wallet receives (the signed object by reference and over
// the DC API), for the rows of the README's HAIP audit ("HAIP 1.0 and OpenID4VP 1.0, audited") that no other test proved.

const ORIGIN = 'https://shop.example';

const test = harnessTest().extend(
  'requestObject',
  { scope: 'file' },
  ({ api, desk, harness }) =>
    async (responseMode: 'direct_post' | 'direct_post.jwt' | 'dc_api' | 'dc_api.jwt') => {
      const created = await api('POST', `/v1/orgs/${ORG}/oid4vp/presentation?verifierId=${desk}`, {
        dcql: bothQuery(),
        responseMode,
        ...(responseMode.startsWith('dc_api') ? { expectedOrigins: [ORIGIN] } : {}),
      });
      expect(created.status).toBe(201);
      const session = created.body.data;
      const jws: string = session.dcApiRequest
        ? session.dcApiRequest.data.request
        : (await harness.call('GET', `/oid4vp/authorization-requests/${session.authorizationRequestId}`)).raw;
      return { session, header: decodeProtectedHeader(jws), payload: decodeJwt(jws) as Record<string, any> };
    },
);

const MODES = ['direct_post', 'direct_post.jwt', 'dc_api', 'dc_api.jwt'] as const;

describe('request objects', () => {
  test.for(MODES)(
    '%s: asks with DCQL only, never with presentation_definition (OpenID4VP 1.0 §5.1)',
    async (mode, { requestObject }) => {
      const { payload } = await requestObject(mode);
      expect(payload.dcql_query).toEqual(expect.objectContaining({ credentials: expect.any(Array) }));
      expect(payload).not.toHaveProperty('presentation_definition');
      expect(payload).not.toHaveProperty('presentation_definition_uri');
      expect(payload).not.toHaveProperty('scope');
    },
  );

  test.for(MODES)(
    '%s: a nonce of at least 128 bits, URL-safe ASCII, new for every request (§5.2)',
    async (mode, { requestObject }) => {
      const [first, second] = [await requestObject(mode), await requestObject(mode)];
      for (const { payload } of [first, second]) {
        expect(payload.nonce).toMatch(/^[A-Za-z0-9._~-]+$/);
        expect(Buffer.from(payload.nonce, 'base64url').length).toBeGreaterThanOrEqual(16);
      }
      expect(first.payload.nonce).not.toBe(second.payload.nonce);
    },
  );

  test.for(['direct_post.jwt', 'dc_api.jwt'] as const)(
    '%s: every client_metadata.jwks key has a kid unique in the request and an alg (§5.1, §8.3); no key serves two requests (HAIP 1.0 §5)',
    async (mode, { requestObject }) => {
      const requests = await Promise.all([requestObject(mode), requestObject(mode), requestObject(mode)]);
      const keys = requests.map(({ payload }) => payload.client_metadata.jwks.keys as Array<Record<string, string>>);
      for (const set of keys) {
        expect(set.length).toBeGreaterThan(0);
        expect(new Set(set.map((key) => key.kid)).size).toBe(set.length);
        for (const key of set) {
          expect(key.kid).toEqual(expect.any(String));
          expect(key).toMatchObject({ alg: 'ECDH-ES', use: 'enc', kty: 'EC', crv: 'P-256' });
          expect(key).not.toHaveProperty('d');
        }
      }
      const all = keys.flat();
      expect(new Set(all.map((key) => key.x)).size).toBe(all.length);
      expect(new Set(all.map((key) => key.kid)).size).toBe(all.length);
    },
  );

  test.for(MODES)(
    '%s: x509_hash signer, no trust anchor and no self-signed certificate in x5c (HAIP 1.0 §5)',
    async (mode, { requestObject, harness }) => {
      const { header, payload } = await requestObject(mode);
      expect(payload.client_id).toMatch(/^x509_hash:/);
      const x5c = header.x5c as string[];
      const caDer = harness.ca.certificate.rawData;
      expect(x5c.length).toBeGreaterThan(0);
      for (const der of x5c) {
        expect(Buffer.from(der, 'base64').equals(Buffer.from(caDer))).toBe(false);
        const certificate = new X509Certificate(Buffer.from(der, 'base64'));
        expect(certificate.checkIssued(certificate)).toBe(false);
      }
    },
  );
});
