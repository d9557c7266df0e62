import { describe, expect, it } from 'vitest';
import { acceptedDcApiAudiences } from '../../src/domain/dc-api-audience.js';
import { checkDcApiProtocols, DEFAULT_DC_API_PROTOCOLS } from '../../src/domain/dc-api-protocols.js';
import { buildMultiSignedPayload, buildUnsignedDcApiRequest } from '../../src/domain/dc-api-request-payloads.js';
import { planDeviceRequest } from '../../src/domain/device-request-plan.js';

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

describe('dcApiProtocols', () => {
  it('accepts the four protocols in any order of preference, and defaults to the signed request alone', () => {
    expect(
      checkDcApiProtocols(['org-iso-mdoc', 'openid4vp-v1-unsigned', 'openid4vp-v1-multisigned', 'openid4vp-v1-signed']),
    ).toEqual([]);
    expect(DEFAULT_DC_API_PROTOCOLS).toEqual(['openid4vp-v1-signed']);
  });

  it('refuses an empty array, unknown names and repeats, each at its index', () => {
    expect(checkDcApiProtocols([])).toEqual([{ path: '', message: 'must name at least one protocol' }]);
    expect(checkDcApiProtocols('org-iso-mdoc')).toHaveLength(1);
    expect(checkDcApiProtocols(['openid4vp', 'org-iso-mdoc', 'org-iso-mdoc']).map((p) => p.path)).toEqual(['/0', '/2']);
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

  it('multi-signed: the signed payload without client_id, keeping expected_origins', () => {
    const payload = buildMultiSignedPayload(requestObject);
    expect(payload).not.toHaveProperty('client_id');
    expect(payload.expected_origins).toEqual(['https://rp.example']);
    expect(payload.nonce).toBe('n');
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
