import { describe, expect, it } from 'vitest';
import { acceptedDcApiAudiences } from '../../src/domain/dc-api-audience.js';
import { ErrorCode } from '@tessera/contracts';
import { AppError } from '@tessera/service-kit';
import {
  checkDcApiProtocolOptions,
  DEFAULT_DC_API_PROTOCOLS,
  primaryDcApiRequest,
  sessionDcApiProtocols,
} from '../../src/domain/dc-api-protocols.js';
import { buildUnsignedDcApiRequest, splitMultiSignedRequest } from '../../src/domain/dc-api-request-payloads.js';
import { planDeviceRequest } from '../../src/domain/device-request-plan.js';
import { multiSignedSigners } from '../../src/domain/multi-signed-signers.js';

const mdl = (id: string, claims: unknown[], extra: Record<string, unknown> = {}) => ({
  id,
  format: 'mso_mdoc',
  meta: { doctype_value: 'org.iso.18013.5.1.mDL' },
  claims,
  ...extra,
});
const claim = (element: string, extra: Record<string, unknown> = {}) => ({
  path: ['org.iso.18013.5.1', element],
  ...extra,
});

function refusal(run: () => void): AppError {
  try {
    run();
  } catch (error) {
    if (error instanceof AppError) return error;
    throw error;
  }
  throw new Error('no refusal');
}

describe('dcApiProtocols', () => {
  it('defaults to the signed request alone, also for sessions stored before the choice existed', () => {
    expect(DEFAULT_DC_API_PROTOCOLS).toEqual(['openid4vp-v1-signed']);
    expect(sessionDcApiProtocols(null)).toEqual(['openid4vp-v1-signed']);
    expect(sessionDcApiProtocols(['org-iso-mdoc', 'openid4vp-v1-unsigned'])).toEqual([
      'org-iso-mdoc',
      'openid4vp-v1-unsigned',
    ]);
  });

  it('is refused with the redirect modes, naming the field', () => {
    const error = refusal(() =>
      checkDcApiProtocolOptions({
        responseMode: 'direct_post',
        isDcApi: false,
        dcApiProtocols: ['openid4vp-v1-signed'],
      }),
    );
    expect(error.statusCode).toBe(400);
    expect(error.code).toBe(ErrorCode.VALIDATION_FAILED);
    expect(error.details).toEqual([{ path: '/dcApiProtocols', message: expect.stringContaining('direct_post') }]);
  });

  it('offers org-iso-mdoc only to a session with exactly one expected origin', () => {
    const check = (expectedOrigins: string[]) => () =>
      checkDcApiProtocolOptions({
        responseMode: 'dc_api',
        isDcApi: true,
        dcApiProtocols: ['openid4vp-v1-signed', 'org-iso-mdoc'],
        expectedOrigins,
      });
    expect(check(['https://rp.example'])).not.toThrow();
    const error = refusal(check(['https://rp.example', 'https://www.rp.example']));
    expect(error.code).toBe(ErrorCode.DC_API_PROTOCOL_NOT_SUPPORTED);
    expect(error.details?.[0]?.path).toBe('/expectedOrigins');
    expect(() =>
      checkDcApiProtocolOptions({
        responseMode: 'dc_api',
        isDcApi: true,
        dcApiProtocols: ['openid4vp-v1-signed', 'openid4vp-v1-unsigned'],
        expectedOrigins: ['https://rp.example', 'https://www.rp.example'],
      }),
    ).not.toThrow();
  });

  it('hands out the signed request as dcApiRequest when offered, else the first', () => {
    const unsigned = { protocol: 'openid4vp-v1-unsigned', data: { nonce: 'n' } } as const;
    const signed = { protocol: 'openid4vp-v1-signed', data: { request: 'a.b.c' } } as const;
    expect(primaryDcApiRequest([unsigned, signed])).toBe(signed);
    expect(primaryDcApiRequest([unsigned])).toBe(unsigned);
  });
});

describe('multiSignedSigners', () => {
  const own = { method: 'X509_P256', clientIdPrefix: 'x509_san_dns', keyType: 'P256' } as const;

  it('puts the session’s own signer first, then every other signer the organisation holds, once each', () => {
    expect(multiSignedSigners(own, { hasEd25519Key: true }).map((s) => [s.method, s.clientIdPrefix])).toEqual([
      ['X509_P256', 'x509_san_dns'],
      ['DID', 'decentralized_identifier'],
      ['X509_ED25519', 'x509_hash'],
    ]);
    expect(multiSignedSigners(own, { hasEd25519Key: false }).map((s) => s.method)).toEqual(['X509_P256', 'DID']);
    const did = { method: 'DID', clientIdPrefix: 'decentralized_identifier', keyType: 'P256' } as const;
    expect(multiSignedSigners(did, { hasEd25519Key: false }).map((s) => s.method)).toEqual(['DID', 'X509_P256']);
  });
});

describe('planDeviceRequest', () => {
  it('plans one DocRequest per credential query, in order, with IntentToRetain from intent_to_retain', () => {
    const plan = planDeviceRequest({
      combine: 'all',
      credentials: [
        mdl('licence', [claim('family_name', { intent_to_retain: true }), claim('portrait')]),
        {
          id: 'photo',
          format: 'mso_mdoc',
          meta: { doctype_value: 'org.iso.23220.photoid.1' },
          claims: [{ path: ['org.iso.23220.1', 'given_name'] }],
          trusted_authorities: [{ type: 'aki', values: ['s9tIpPmhxdiuNkHMEWNpYim8S8Y'] }],
        },
      ],
    });
    expect(plan.ok).toBe(true);
    if (!plan.ok) return;
    expect(plan.docRequests.map((request) => request.credentialQueryId)).toEqual(['licence', 'photo']);
    expect(plan.docRequests[0]!.docType).toBe('org.iso.18013.5.1.mDL');
    expect([...plan.docRequests[0]!.nameSpaces.get('org.iso.18013.5.1')!]).toEqual([
      ['family_name', true],
      ['portrait', false],
    ]);
    expect([...plan.docRequests[1]!.nameSpaces.keys()]).toEqual(['org.iso.23220.1']);
  });

  it('keeps an element named twice once, retained when either claim retains it', () => {
    const plan = planDeviceRequest({
      credentials: [mdl('m', [claim('family_name'), claim('family_name', { intent_to_retain: true })])],
    });
    expect(plan.ok && [...plan.docRequests[0]!.nameSpaces.get('org.iso.18013.5.1')!]).toEqual([['family_name', true]]);
  });

  it('keeps namespaces and elements named like object prototype keys as plain keys', () => {
    const plan = planDeviceRequest({ credentials: [mdl('m', [{ path: ['__proto__', 'constructor'] }])] });
    expect(plan.ok && plan.docRequests[0]!.nameSpaces.get('__proto__')?.get('constructor')).toBe(false);
    expect(({} as Record<string, unknown>).constructor).toBe(Object);
  });

  it.each([
    [
      'an SD-JWT VC query',
      { credentials: [mdl('m', [claim('a')]), { id: 's', format: 'dc+sd-jwt', meta: { vct_values: ['x'] } }] },
      '/credentials/1/format',
    ],
    [
      'alternatives between credential sets',
      {
        credentials: [mdl('a', [claim('x')]), mdl('b', [claim('y')])],
        credential_sets: [{ options: [['a'], ['b']], required: true }],
      },
      '/credential_sets/0/options',
    ],
    [
      'claim sets',
      { credentials: [mdl('m', [claim('a', { id: 'a' })], { claim_sets: [['a']] })] },
      '/credentials/0/claim_sets',
    ],
    [
      'value matching',
      { credentials: [mdl('m', [claim('age_over_18', { values: [true] })])] },
      '/credentials/0/claims/0/values',
    ],
    [
      'several credentials per query',
      { credentials: [mdl('m', [claim('a')], { multiple: true })] },
      '/credentials/0/multiple',
    ],
    ['a query without claims', { credentials: [mdl('m', [])] }, '/credentials/0/claims'],
  ])('refuses %s, naming the part of the query', (_, query, path) => {
    const plan = planDeviceRequest(query);
    expect(plan.ok).toBe(false);
    if (plan.ok) return;
    expect(plan.path).toBe(path);
    expect(plan.message.length).toBeGreaterThan(10);
  });

  it('accepts credential sets that offer one option each, required or not', () => {
    const plan = planDeviceRequest({
      credentials: [mdl('a', [claim('x')]), mdl('b', [claim('y')])],
      credential_sets: [
        { options: [['a']], required: true },
        { options: [['b']], required: false },
      ],
    });
    expect(plan.ok && plan.docRequests.map((request) => request.credentialQueryId)).toEqual(['a', 'b']);
  });
});

describe('request payloads of the OpenID4VP protocols', () => {
  const requestObject = {
    aud: 'https://self-issued.me/v2',
    iat: 1,
    exp: 2,
    client_id: 'x509_hash:abc',
    response_type: 'vp_token',
    response_mode: 'dc_api',
    nonce: 'n',
    dcql_query: { credentials: [] },
    client_metadata: { vp_formats_supported: {} },
    expected_origins: ['https://rp.example'],
    transaction_data: ['e30'],
  };

  it('unsigned: the request parameters as a JSON object, without client_id, expected_origins or JWT claims', () => {
    expect(buildUnsignedDcApiRequest(requestObject)).toEqual({
      response_type: 'vp_token',
      response_mode: 'dc_api',
      nonce: 'n',
      dcql_query: { credentials: [] },
      client_metadata: { vp_formats_supported: {} },
      transaction_data: ['e30'],
    });
  });

  it('unsigned: any other parameter of the request object flows through (a later one, such as verifier_info)', () => {
    const data = buildUnsignedDcApiRequest({ ...requestObject, wallet_nonce: 'w', some_new_parameter: { a: 1 } });
    expect(data.some_new_parameter).toEqual({ a: 1 });
    expect(data).not.toHaveProperty('wallet_nonce');
  });

  it('multi-signed: the signed payload without client_id, keeping expected_origins; verifier_info to the headers', () => {
    const { payload, protectedHeader } = splitMultiSignedRequest(requestObject);
    expect(payload).not.toHaveProperty('client_id');
    expect(payload.expected_origins).toEqual(['https://rp.example']);
    expect(payload.nonce).toBe('n');
    expect(protectedHeader).toEqual({});
    const withInfo = splitMultiSignedRequest({ ...requestObject, verifier_info: [{ format: 'x', data: 'y' }] });
    expect(withInfo.payload).not.toHaveProperty('verifier_info');
    expect(withInfo.protectedHeader).toEqual({ verifier_info: [{ format: 'x', data: 'y' }] });
  });
});

describe('acceptedDcApiAudiences', () => {
  it('is origin:<origin> for every protocol but the multi-signed one', () => {
    for (const protocol of ['openid4vp-v1-unsigned', 'openid4vp-v1-signed'] as const)
      expect(
        acceptedDcApiAudiences({ protocol, origin: 'https://rp.example', signerClientIds: ['x509_hash:a'] }),
      ).toEqual(['origin:https://rp.example']);
  });

  it('adds the signers’ client ids for a multi-signed request', () => {
    expect(
      acceptedDcApiAudiences({
        protocol: 'openid4vp-v1-multisigned',
        origin: 'https://rp.example',
        signerClientIds: ['x509_hash:a', 'decentralized_identifier:did:jwk:b'],
      }),
    ).toEqual(['origin:https://rp.example', 'x509_hash:a', 'decentralized_identifier:did:jwk:b']);
  });
});
