import { describe, expect, it } from 'vitest';
import type { AppError } from '@tessera/service-kit';
import { clientIdFor, x509HashOf } from '../../src/domain/client-id.js';
import {
  buildAuthorizationRequestUri,
  buildClientMetadata,
  buildRequestObject,
} from '../../src/domain/request-object.js';
import { resolveRequestSigner } from '../../src/domain/request-signer.js';
import { checkResponseModeOptions } from '../../src/domain/response-mode.js';
import { effectiveSessionState } from '../../src/domain/session-state.js';
import { encodeTransactionData } from '../../src/domain/transaction-data.js';

function codeOf(run: () => void): string | undefined {
  try {
    run();
    return undefined;
  } catch (error) {
    return (error as AppError).code;
  }
}

describe('response mode options', () => {
  it('requires expectedOrigins for DC API modes and refuses them for redirect modes', () => {
    expect(codeOf(() => checkResponseModeOptions({ responseMode: 'dc_api' }))).toBe('EXPECTED_ORIGINS_REQUIRED');
    expect(codeOf(() => checkResponseModeOptions({ responseMode: 'dc_api.jwt', expectedOrigins: [] }))).toBe(
      'EXPECTED_ORIGINS_REQUIRED',
    );
    expect(
      codeOf(() => checkResponseModeOptions({ responseMode: 'direct_post', expectedOrigins: ['https://a.example'] })),
    ).toBe('EXPECTED_ORIGINS_NOT_ALLOWED');
    expect(
      codeOf(() => checkResponseModeOptions({ responseMode: 'dc_api', expectedOrigins: ['https://a.example'] })),
    ).toBeUndefined();
    expect(codeOf(() => checkResponseModeOptions({ responseMode: 'direct_post.jwt' }))).toBeUndefined();
  });

  it('refuses origins with a path and redirectUri in DC API modes', () => {
    expect(
      codeOf(() => checkResponseModeOptions({ responseMode: 'dc_api', expectedOrigins: ['https://a.example/path'] })),
    ).toBe('VALIDATION_FAILED');
    expect(
      codeOf(() =>
        checkResponseModeOptions({
          responseMode: 'dc_api',
          expectedOrigins: ['https://a.example'],
          redirectUri: 'https://a.example/done',
        }),
      ),
    ).toBe('VALIDATION_FAILED');
  });
});

describe('request signer rules', () => {
  it('defaults to X509_P256 with x509_hash (HAIP), then the template, then the body', () => {
    expect(resolveRequestSigner({})).toEqual({ method: 'X509_P256', clientIdPrefix: 'x509_hash', keyType: 'P256' });
    expect(resolveRequestSigner({ fallback: { method: 'X509_ED25519', clientIdPrefix: 'x509_san_dns' } })).toEqual({
      method: 'X509_ED25519',
      clientIdPrefix: 'x509_san_dns',
      keyType: 'ED25519',
    });
    expect(
      resolveRequestSigner({
        requested: { method: 'DID', clientIdPrefix: 'x509_san_dns' },
        fallback: { method: 'X509_P256' },
      }),
    ).toEqual({ method: 'DID', clientIdPrefix: 'decentralized_identifier', keyType: 'P256' });
  });

  it('derives client ids with their prefix', () => {
    const der = Buffer.from('certificate').toString('base64');
    expect(clientIdFor({ prefix: 'x509_hash', leafDer: der })).toBe(`x509_hash:${x509HashOf(der)}`);
    expect(x509HashOf(der)).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(clientIdFor({ prefix: 'x509_san_dns', sanDnsName: 'v.example' })).toBe('x509_san_dns:v.example');
    expect(clientIdFor({ prefix: 'decentralized_identifier', did: 'did:jwk:abc' })).toBe(
      'decentralized_identifier:did:jwk:abc',
    );
  });
});

describe('request object', () => {
  const now = new Date('2026-01-01T00:00:00Z');
  const base = {
    clientId: 'x509_hash:abc',
    nonce: 'n',
    state: 's',
    dcqlQuery: { credentials: [] },
    now,
    expiresAt: new Date(now.getTime() + 300_000),
  };

  it('carries response_uri and state in redirect modes, expected_origins in DC API modes', () => {
    const redirect = buildRequestObject({
      ...base,
      responseMode: 'direct_post',
      responseUri: 'https://v/r',
      clientMetadata: buildClientMetadata({}),
    });
    expect(redirect).toMatchObject({
      aud: 'https://self-issued.me/v2',
      response_uri: 'https://v/r',
      state: 's',
      response_type: 'vp_token',
      exp: redirect.iat! + 300,
    });
    const dcApi = buildRequestObject({
      ...base,
      responseMode: 'dc_api',
      expectedOrigins: ['https://o'],
      clientMetadata: buildClientMetadata({}),
      walletNonce: 'w',
    });
    expect(dcApi.expected_origins).toEqual(['https://o']);
    expect(dcApi.response_uri).toBeUndefined();
    expect(dcApi.state).toBeUndefined();
    expect(dcApi.wallet_nonce).toBe('w');
  });

  it('refuses an encrypted mode without the session key', () => {
    expect(() =>
      buildRequestObject({
        ...base,
        responseMode: 'direct_post.jwt',
        responseUri: 'https://v/r',
        clientMetadata: buildClientMetadata({}),
      }),
    ).toThrow();
  });

  it('builds the request URI with request_uri_method=post', () => {
    const uri = new URL(
      buildAuthorizationRequestUri({ clientId: 'x509_san_dns:v.example', requestUri: 'https://v.example/r/1' }),
    );
    expect(uri.protocol).toBe('openid4vp:');
    expect(Object.fromEntries(uri.searchParams)).toEqual({
      client_id: 'x509_san_dns:v.example',
      request_uri: 'https://v.example/r/1',
      request_uri_method: 'post',
    });
  });
});

describe('session expiry at read time', () => {
  const now = new Date('2026-01-01T00:05:00Z');
  it('reads an open session past expiresAt as Error SESSION_EXPIRED', () => {
    const stored = {
      state: 'RequestCreated',
      expiresAt: new Date('2026-01-01T00:04:59Z'),
      errorCode: null,
      errorSubject: null,
    };
    expect(effectiveSessionState(stored, now)).toMatchObject({ state: 'Error', error: { code: 'SESSION_EXPIRED' } });
    expect(effectiveSessionState({ ...stored, expiresAt: new Date('2026-01-01T00:06:00Z') }, now)).toEqual({
      state: 'RequestCreated',
    });
    expect(effectiveSessionState({ ...stored, state: 'ResponseVerified' }, now)).toEqual({ state: 'ResponseVerified' });
  });
});

describe('transaction data', () => {
  it('encodes entries as base64url JSON and refuses unknown credential ids', () => {
    const ok = encodeTransactionData({ entries: [{ type: 't', credential_ids: ['pid'] }], credentialIds: ['pid'] });
    expect(ok.ok && JSON.parse(Buffer.from(ok.encoded[0]!, 'base64url').toString())).toEqual({
      type: 't',
      credential_ids: ['pid'],
    });
    const bad = encodeTransactionData({
      entries: [{ type: 't', credential_ids: ['pid', 'x'] }],
      credentialIds: ['pid'],
    });
    expect(!bad.ok && bad.details.map((d) => d.path)).toEqual(['/transactionData/0/credential_ids/1']);
  });
});
