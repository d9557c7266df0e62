import { describe, expect } from 'vitest';
import { bothQuery } from '../support/dcql-queries.js';
import { verifierTest } from '../support/fixtures.js';
import { ORG } from '../support/management.js';
import { resolveAsWallet, resolveDcApiAsWallet } from '../support/wallet.js';

// Every signer × client_id prefix × response mode, accepted by an independent wallet library
// (@openid4vc/openid4vp) that checks the x5c chain to the platform CA or resolves the did:jwk.
const SIGNERS = [
  { method: 'DID', prefix: 'decentralized_identifier' },
  { method: 'X509_P256', clientIdPrefix: 'x509_hash', prefix: 'x509_hash' },
  { method: 'X509_P256', clientIdPrefix: 'x509_san_dns', prefix: 'x509_san_dns' },
  { method: 'X509_ED25519', clientIdPrefix: 'x509_hash', prefix: 'x509_hash' },
  { method: 'X509_ED25519', clientIdPrefix: 'x509_san_dns', prefix: 'x509_san_dns' },
] as const;
const MODES = ['direct_post', 'direct_post.jwt', 'dc_api', 'dc_api.jwt'] as const;
const ORIGIN = 'https://rp.example';

// ORG's verifier `front-desk` with client metadata; `caPem`, the platform CA as wallets download it.
const test = verifierTest.extend('caPem', { scope: 'file' }, async ({ harness: h, api }) => {
  const created = await api('POST', `/v1/orgs/${ORG}/oid4vp/verifier`, {
    verifierId: 'front-desk',
    clientMetadata: { client_name: 'Acme Front Desk', logo_uri: 'https://acme.example/logo.png' },
  });
  expect(created.status).toBe(201);
  return (await h.call('GET', '/oid4vp/platform-ca.pem')).raw;
});

describe('request objects accepted by the wallet library', () => {
  for (const signer of SIGNERS) {
    for (const mode of MODES) {
      const dcApi = mode.startsWith('dc_api');
      const encrypted = mode.endsWith('.jwt');
      test(`${signer.method} ${signer.prefix} ${mode}: the wallet library accepts the signed request`, async ({
        harness: h,
        api,
        caPem,
      }) => {
        const requestSigner = {
          method: signer.method,
          ...('clientIdPrefix' in signer ? { clientIdPrefix: signer.clientIdPrefix } : {}),
        };
        const response = await api('POST', `/v1/orgs/${ORG}/oid4vp/presentation?verifierId=front-desk`, {
          dcql: bothQuery(),
          responseMode: mode,
          requestSigner,
          transactionData: [{ type: 'payment', credential_ids: ['pid'], amount: '10 EUR' }],
          ...(dcApi ? { expectedOrigins: [ORIGIN] } : {}),
        });
        expect(response.status, response.raw).toBe(201);
        const session = response.body.data;
        expect(session.clientId.startsWith(`${signer.prefix}:`)).toBe(true);

        const resolved = dcApi
          ? await resolveDcApiAsWallet({ app: h.app, caPem, data: session.dcApiRequest.data, origin: ORIGIN })
          : await resolveAsWallet({ app: h.app, caPem, authorizationRequestUri: session.authorizationRequestUri });

        expect(resolved.client.prefix).toBe(signer.prefix);
        expect(resolved.client.effective).toBe(session.clientId);
        expect(resolved.version).toBe(100);
        expect(resolved.jar?.jwt.header.typ).toBe('oauth-authz-req+jwt');
        if (signer.method === 'DID')
          expect(resolved.jar?.jwt.header.kid).toBe(`${session.clientId.slice('decentralized_identifier:'.length)}#0`);
        else expect(resolved.jar?.jwt.header.alg).toBe(signer.method === 'X509_P256' ? 'ES256' : 'EdDSA');

        const payload = resolved.authorizationRequestPayload as Record<string, any>;
        expect(payload.aud).toBe('https://self-issued.me/v2');
        expect(payload.response_type).toBe('vp_token');
        expect(payload.response_mode).toBe(mode);
        expect(payload.nonce).toBe(session.nonce);
        expect(payload.nonce.length).toBeGreaterThanOrEqual(22);
        expect(payload.dcql_query).toEqual({
          credentials: bothQuery().credentials,
          credential_sets: bothQuery().credential_sets,
        });
        expect(payload.dcql_query.combine).toBeUndefined();
        expect(resolved.transactionData?.[0]?.transactionData).toMatchObject({
          type: 'payment',
          credential_ids: ['pid'],
        });
        const metadata = payload.client_metadata;
        expect(metadata.client_name).toBe('Acme Front Desk');
        expect(metadata.logo_uri).toBe('https://acme.example/logo.png');
        expect(Object.keys(metadata.vp_formats_supported).sort()).toEqual(['dc+sd-jwt', 'mso_mdoc']);
        if (encrypted) {
          const [key] = metadata.jwks.keys;
          expect(key).toMatchObject({ kty: 'EC', crv: 'P-256', alg: 'ECDH-ES', use: 'enc' });
          expect(key.kid).toEqual(expect.any(String));
          expect(key.d).toBeUndefined();
          expect(metadata.encrypted_response_enc_values_supported).toEqual(['A128GCM', 'A256GCM']);
        } else {
          expect(metadata.jwks).toBeUndefined();
        }
        if (dcApi) {
          expect(payload.expected_origins).toEqual([ORIGIN]);
          expect(payload.response_uri).toBeUndefined();
          expect(payload.state).toBeUndefined();
          expect(payload.request_uri_method).toBeUndefined();
          expect(session.requestUri).toBeUndefined();
          expect(session.authorizationRequestUri).toBeUndefined();
        } else {
          expect(payload.response_uri).toBe(session.responseUri);
          expect(payload.state).toBe(session.payloadState);
          expect(payload.expected_origins).toBeUndefined();
          const read = await api('GET', `/v1/orgs/${ORG}/oid4vp/verifier-presentation?id=${session.id}`);
          expect(read.body.data.state).toBe('RequestUriRetrieved');
        }
      });
    }
  }
});
