import { createHash } from 'node:crypto';
import { resolveOpenid4vpAuthorizationRequest } from '@openid4vc/openid4vp';
import { describe, expect, it } from 'vitest';
import { didJwkOf } from '../../src/crypto/did-jwk.js';
import { issueLeafCertificate } from '../../src/crypto/leaf-certificate.js';
import { generatePlatformCa, loadPlatformCa } from '../../src/crypto/platform-ca.js';
import { signMultiSignedRequest } from '../../src/crypto/sign-multi-signed-request.js';
import { generateSigningKeyPair, importSigningKey, publicJwkOf } from '../../src/crypto/signing-key.js';
import { clientIdFor } from '../../src/domain/client-id.js';
import { buildUnsignedDcApiRequest, splitMultiSignedRequest } from '../../src/domain/dc-api-request-payloads.js';
import { buildClientMetadata, buildRequestObject } from '../../src/domain/request-object.js';
import { checkMultiSignedRequest } from '../support/dc-api-wallet.js';
import { createVerifyJwt } from '../support/wallet.js';

const ORIGIN = 'https://rp.example';
const HOST = 'verifier.tessera.test';
const QUERY = {
  credentials: [{ id: 'pid', format: 'dc+sd-jwt', meta: { vct_values: ['https://example.eu/pid'] } }],
};

/** The independent wallet library resolving a DC API request `payload` handed over by a browser at `origin`. */
function resolveAsWallet(payload: Record<string, unknown>, origin: string, caPem = 'unused') {
  return resolveOpenid4vpAuthorizationRequest({
    authorizationRequestPayload: payload,
    origin,
    callbacks: {
      verifyJwt: createVerifyJwt(caPem),
      hash: (data: Uint8Array) => new Uint8Array(createHash('sha256').update(data).digest()),
      fetch,
      getX509CertificateMetadata: () => ({ sanDnsNames: [], sanUriNames: [] }),
      decryptJwe: () => Promise.reject(new Error('no encrypted request here')),
    },
  });
}

function requestObject(clientId: string) {
  const now = new Date();
  return buildRequestObject({
    clientId,
    responseMode: 'dc_api',
    nonce: 'n-0S6_WzA2Mj-session-nonce',
    state: 'unused',
    dcqlQuery: QUERY,
    clientMetadata: buildClientMetadata({ display: { client_name: 'Tessera RP' } }),
    expectedOrigins: [ORIGIN],
    now,
    expiresAt: new Date(now.getTime() + 300_000),
  });
}

/** The organisation's signers, from the service's own key and certificate code: a P-256 leaf, its did:jwk, an Ed25519 leaf. */
async function signers() {
  const now = new Date();
  const caPem = await generatePlatformCa({ now });
  const ca = await loadPlatformCa(caPem, now);
  const p256 = await generateSigningKeyPair('P256');
  const ed25519 = await generateSigningKeyPair('ED25519');
  const p256Leaf = await issueLeafCertificate({
    ca,
    publicJwk: p256.publicJwk,
    keyType: 'P256',
    host: HOST,
    orgId: 'o',
    now,
  });
  const edLeaf = await issueLeafCertificate({
    ca,
    publicJwk: ed25519.publicJwk,
    keyType: 'ED25519',
    host: HOST,
    orgId: 'o',
    now,
  });
  const did = didJwkOf(publicJwkOf(p256.publicJwk));
  return {
    caPem: caPem.certificatePem,
    list: [
      {
        clientId: clientIdFor({ prefix: 'x509_hash', leafDer: p256Leaf }),
        key: { privateKey: await importSigningKey(p256.privateJwk, 'P256'), alg: 'ES256' as const, x5c: [p256Leaf] },
      },
      {
        clientId: clientIdFor({ prefix: 'decentralized_identifier', did }),
        key: { privateKey: await importSigningKey(p256.privateJwk, 'P256'), alg: 'ES256' as const, kid: `${did}#0` },
      },
      {
        clientId: clientIdFor({ prefix: 'x509_hash', leafDer: edLeaf }),
        key: {
          privateKey: await importSigningKey(ed25519.privateJwk, 'ED25519'),
          alg: 'EdDSA' as const,
          x5c: [edLeaf],
        },
      },
    ],
  };
}

describe('openid4vp-v1-unsigned', () => {
  it('is resolved by an independent wallet library as an unsigned DC API request bound to the origin', async () => {
    const data = buildUnsignedDcApiRequest(requestObject('x509_hash:ignored'));
    expect(data).not.toHaveProperty('client_id');
    const resolved = await resolveAsWallet(data, ORIGIN);
    expect(resolved.jar).toBeUndefined();
    expect(resolved.client).toMatchObject({ prefix: 'origin', effective: `origin:${ORIGIN}` });
    expect(resolved.dcql?.query).toEqual(QUERY);
    expect(resolved.authorizationRequestPayload).toMatchObject({
      response_mode: 'dc_api',
      nonce: 'n-0S6_WzA2Mj-session-nonce',
    });
  });
});

describe('openid4vp-v1-multisigned', () => {
  it('carries one verifiable signature per signer, each naming its client_id and key material; the payload has none', async () => {
    const { caPem, list } = await signers();
    const request = await signMultiSignedRequest({
      ...splitMultiSignedRequest(requestObject(list[0]!.clientId)),
      signers: list,
    });
    const payload = JSON.parse(Buffer.from(request.payload, 'base64url').toString('utf8')) as Record<string, unknown>;
    expect(payload).not.toHaveProperty('client_id');
    expect(payload.expected_origins).toEqual([ORIGIN]);
    expect(request.signatures).toHaveLength(3);

    // Each signature verifies with the key its header names, found and checked without the service's code.
    const checked = await checkMultiSignedRequest(request, caPem);
    expect(checked.signatures.map(({ header }) => header.client_id)).toEqual(list.map((signer) => signer.clientId));
    expect(checked.signatures.map(({ header }) => header.alg)).toEqual(['ES256', 'ES256', 'EdDSA']);

    // The payload is a valid DC API request for the independent library, whose origin check it passes.
    const resolved = await resolveAsWallet(payload, ORIGIN, caPem);
    expect(resolved.dcql?.query).toEqual(QUERY);
    await expect(resolveAsWallet(payload, 'https://attacker.example', caPem)).rejects.toThrow(/expected_origins/);
  });

  it('refuses a payload that still names a client_id, and a request without signers', async () => {
    const { list } = await signers();
    await expect(signMultiSignedRequest({ payload: requestObject(list[0]!.clientId), signers: list })).rejects.toThrow(
      /no client_id/,
    );
    await expect(
      signMultiSignedRequest({ payload: splitMultiSignedRequest(requestObject('x')).payload, signers: [] }),
    ).rejects.toThrow(/at least one signer/);
    await expect(
      signMultiSignedRequest({ payload: { nonce: 'n', verifier_info: STAND_IN_VERIFIER_INFO }, signers: list }),
    ).rejects.toThrow(/no verifier_info/);
  });
});

/**
 * A stand-in for what the relying-party identity work adds to the request object
 * (OpenID4VP 1.0 §5.1 `verifier_info`, e.g. a registration certificate): not
 * known here, so any value the payload carries must flow to every protocol.
 */
const STAND_IN_VERIFIER_INFO = [{ format: 'stand-in', data: 'eyJzdGFuZC1pbiI6dHJ1ZX0', credential_ids: ['pid'] }];

describe('verifier_info in every protocol (OpenID4VP 1.0 Appendix A.2, A.3.2)', () => {
  const withVerifierInfo = (clientId: string) => ({
    ...requestObject(clientId),
    verifier_info: STAND_IN_VERIFIER_INFO,
  });

  it('an unsigned request keeps it as a request parameter, and the independent wallet reads it', async () => {
    const data = buildUnsignedDcApiRequest(withVerifierInfo('x509_hash:ignored'));
    expect(data.verifier_info).toEqual(STAND_IN_VERIFIER_INFO);
    const resolved = await resolveAsWallet(data, ORIGIN);
    expect(resolved.authorizationRequestPayload).toMatchObject({ verifier_info: STAND_IN_VERIFIER_INFO });
  });

  it('a multi-signed request carries it in every signature’s protected header and not in the payload', async () => {
    const { list } = await signers();
    const request = await signMultiSignedRequest({
      ...splitMultiSignedRequest(withVerifierInfo(list[0]!.clientId)),
      signers: list,
    });
    const payload = JSON.parse(Buffer.from(request.payload, 'base64url').toString('utf8')) as Record<string, unknown>;
    expect(payload).not.toHaveProperty('verifier_info');
    expect(payload).not.toHaveProperty('client_id');
    for (const [index, signature] of request.signatures.entries()) {
      const header = JSON.parse(Buffer.from(signature.protected, 'base64url').toString('utf8')) as Record<
        string,
        unknown
      >;
      expect(header.verifier_info).toEqual(STAND_IN_VERIFIER_INFO);
      expect(header.client_id).toBe(list[index]!.clientId);
    }
  });

  it('a parameter in the header cannot displace the signer’s own alg, typ or client_id', async () => {
    const { list } = await signers();
    const request = await signMultiSignedRequest({
      payload: { nonce: 'n' },
      protectedHeader: { verifier_info: STAND_IN_VERIFIER_INFO, client_id: 'x509_hash:forged', typ: 'JWT' },
      signers: [list[0]!],
    });
    const header = JSON.parse(Buffer.from(request.signatures[0]!.protected, 'base64url').toString('utf8')) as Record<
      string,
      unknown
    >;
    expect(header).toMatchObject({ client_id: list[0]!.clientId, typ: 'oauth-authz-req+jwt', alg: 'ES256' });
  });
});
