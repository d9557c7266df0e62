import { decodeJwt, decodeProtectedHeader } from 'jose';
import { describe, expect } from 'vitest';
import type { DcApiRequest } from '@tessera/contracts';
import { cborDecode, DeviceRequest } from '@owf/mdoc';
import { parseAnnexCRequest } from '../support/annex-c-holder.js';
import { checkMultiSignedRequest, requestOf } from '../support/dc-api-wallet.js';
import { mdocQuery, sdJwtQuery } from '../support/dcql-queries.js';
import { harnessTest } from '../support/fixtures.js';
import { ORG, oid4vpPath } from '../support/management.js';
import { allStoredSessions } from '../support/stored-rows.js';
import { x509 } from '../verification/support/pki.js';

// Creating DC API sessions with `dcApiProtocols` (issue 24, item 1) over the management API.
const ORIGIN = 'https://rp.tessera.test';
const ALL = ['org-iso-mdoc', 'openid4vp-v1-unsigned', 'openid4vp-v1-signed', 'openid4vp-v1-multisigned'] as const;
const test = harnessTest();

/** The record fields every DC API session had before protocols could be chosen (VERIFIER.md). */
const TODAYS_RECORD_FIELDS = [
  'authorizationRequestId',
  'clientId',
  'createdAt',
  'expectedOrigins',
  'expiresAt',
  'id',
  'nonce',
  'payloadState',
  'publicVerifierId',
  'responseMode',
  'state',
  'updatedAt',
];

describe('a DC API client that names no protocol', () => {
  test.for(['dc_api', 'dc_api.jwt'])(
    '%s: today’s answer and record; the one addition is dcApiRequests holding exactly dcApiRequest',
    async (responseMode, { api, desk }) => {
      const created = await api('POST', `${oid4vpPath()}/presentation?verifierId=${desk}`, {
        dcql: sdJwtQuery(),
        responseMode,
        expectedOrigins: [ORIGIN],
      });
      expect(created.status).toBe(201);
      const data = created.body.data;
      expect(Object.keys(data).sort()).toEqual([...TODAYS_RECORD_FIELDS, 'dcApiRequest', 'dcApiRequests'].sort());
      expect(data.dcApiRequest.protocol).toBe('openid4vp-v1-signed');
      expect(data.dcApiRequests).toEqual([data.dcApiRequest]);
      const record = await api('GET', `${oid4vpPath()}/verifier-presentation?id=${data.id}`);
      expect(Object.keys(record.body.data).sort()).toEqual(TODAYS_RECORD_FIELDS);
    },
  );

  test('a redirect session has neither dcApiRequest nor dcApiRequests', async ({ api, desk }) => {
    const created = await api('POST', `${oid4vpPath()}/presentation?verifierId=${desk}`, {
      dcql: sdJwtQuery(),
      responseMode: 'direct_post',
    });
    expect(created.body.data).not.toHaveProperty('dcApiRequest');
    expect(created.body.data).not.toHaveProperty('dcApiRequests');
    expect(created.body.data).not.toHaveProperty('dcApiProtocols');
  });
});

describe('a session offering every protocol', () => {
  test('answers one request per protocol in the relying party’s order, dcApiRequest its signed one', async ({
    api,
    desk,
    harness,
  }) => {
    const created = await api('POST', `${oid4vpPath()}/presentation?verifierId=${desk}`, {
      dcql: mdocQuery(),
      responseMode: 'dc_api.jwt',
      expectedOrigins: [ORIGIN],
      dcApiProtocols: ALL,
    });
    expect(created.status, created.raw).toBe(201);
    const data = created.body.data as { id: string; nonce: string; clientId: string; dcApiRequests: DcApiRequest[] } & {
      dcApiRequest: DcApiRequest;
      dcApiProtocols: string[];
    };
    expect(data.dcApiRequests.map((request) => request.protocol)).toEqual([...ALL]);
    expect(data.dcApiRequest).toEqual(requestOf(data, 'openid4vp-v1-signed'));
    expect(data.dcApiProtocols).toEqual([...ALL]);
    const record = await api('GET', `${oid4vpPath()}/verifier-presentation?id=${data.id}`);
    expect(record.body.data.dcApiProtocols).toEqual([...ALL]);

    // The signed and unsigned requests carry the same parameters; the unsigned one no client_id or expected_origins.
    const signed = decodeJwt((requestOf(data, 'openid4vp-v1-signed').data as { request: string }).request);
    const unsigned = requestOf(data, 'openid4vp-v1-unsigned').data as Record<string, unknown>;
    expect(unsigned).not.toHaveProperty('client_id');
    expect(unsigned).not.toHaveProperty('expected_origins');
    for (const name of ['response_type', 'response_mode', 'nonce', 'dcql_query', 'client_metadata'])
      expect(unsigned[name], name).toEqual(signed[name]);

    // Multi-signed: the organisation's signers (its P-256 chain, the did:jwk of that key), each checked independently.
    const multi = requestOf(data, 'openid4vp-v1-multisigned').data as {
      request: Parameters<typeof checkMultiSignedRequest>[0];
    };
    const checked = await checkMultiSignedRequest(multi.request, harness.ca.certificatePem);
    expect(checked.signatures.map(({ header }) => header.client_id)).toEqual([
      data.clientId,
      expect.stringMatching(/^decentralized_identifier:did:jwk:/),
    ]);
    expect(checked.payload).not.toHaveProperty('client_id');
    expect(checked.payload).toMatchObject({ nonce: data.nonce, expected_origins: [ORIGIN] });

    // org-iso-mdoc: a DeviceRequest the independent holder accepts for the session's origin, with the platform reader leaf.
    const annexC = requestOf(data, 'org-iso-mdoc').data as { deviceRequest: string; encryptionInfo: string };
    const parsed = await parseAnnexCRequest(annexC, {
      origin: ORIGIN,
      readerAnchors: [new Uint8Array(new x509.X509Certificate(harness.ca.certificatePem).rawData)],
    });
    expect(parsed.docRequests.map((request) => request.docType)).toEqual(['org.iso.18013.5.1.mDL']);
    expect([...parsed.docRequests[0]!.nameSpaces.get('org.iso.18013.5.1')!]).toEqual([['family_name', false]]);
    // …and not for another origin: each ReaderAuth covers the transcript of the session's one origin.
    await expect(
      parseAnnexCRequest(annexC, {
        origin: 'https://other.example',
        readerAnchors: [new Uint8Array(new x509.X509Certificate(harness.ca.certificatePem).rawData)],
      }),
    ).rejects.toThrow(/ReaderAuth does not verify/);

    // The HPKE key is sealed at rest with the session, never stored in the clear.
    const [row] = (await allStoredSessions(harness.testDb.database)).filter((session) => session.id === data.id);
    expect(row!.annexCEncryptionInfo).toBe(annexC.encryptionInfo);
    expect(row!.encryptedAnnexCKey).toMatch(/^v1\./);
    expect(row!.encryptedAnnexCKey).not.toContain('"d"');
    expect(row!.dcApiSignerClientIds).toEqual(checked.signatures.map(({ header }) => header.client_id));
  });

  test('intent_to_retain becomes IntentToRetain, and a DID-signed session signs the multi-signed request first as its DID', async ({
    api,
    desk,
  }) => {
    const query = mdocQuery();
    query.credentials[0]!.claims[0]!.intent_to_retain = true;
    const created = await api('POST', `${oid4vpPath()}/presentation?verifierId=${desk}`, {
      dcql: query,
      responseMode: 'dc_api',
      expectedOrigins: [ORIGIN],
      requestSigner: { method: 'DID' },
      dcApiProtocols: ['openid4vp-v1-multisigned', 'org-iso-mdoc'],
    });
    expect(created.status, created.raw).toBe(201);
    const data = created.body.data;
    // Without the signed protocol, dcApiRequest is the first request.
    expect(data.dcApiRequest).toEqual(data.dcApiRequests[0]);
    const [first] = (data.dcApiRequest.data.request as { signatures: Array<{ protected: string }> }).signatures;
    expect(decodeProtectedHeader(`${first!.protected}..`).client_id).toBe(data.clientId);
    const deviceRequest = DeviceRequest.decode(Buffer.from(data.dcApiRequests[1].data.deviceRequest, 'base64url'));
    expect(deviceRequest.version).toBe('1.0');
    expect([...deviceRequest.docRequests[0]!.itemsRequest.namespaces.get('org.iso.18013.5.1')!]).toEqual([
      ['family_name', true],
    ]);
    const encryptionInfo = cborDecode(Buffer.from(data.dcApiRequests[1].data.encryptionInfo, 'base64url')) as [
      string,
      Map<string, unknown>,
    ];
    expect(encryptionInfo[0]).toBe('dcapi');
  });

  test('each session has its own EncryptionInfo', async ({ api, desk }) => {
    const body = {
      dcql: mdocQuery(),
      responseMode: 'dc_api',
      expectedOrigins: [ORIGIN],
      dcApiProtocols: ['org-iso-mdoc'],
    };
    const infos = await Promise.all(
      [1, 2].map(async () => {
        const created = await api('POST', `${oid4vpPath()}/presentation?verifierId=${desk}`, body);
        return created.body.data.dcApiRequest.data.encryptionInfo as string;
      }),
    );
    expect(new Set(infos).size).toBe(2);
  });
});

describe('refused protocol choices (nothing stored)', () => {
  const cases: Array<[string, Record<string, unknown>, number, string, string]> = [
    ['an empty array', { dcApiProtocols: [] }, 400, 'VALIDATION_FAILED', '/dcApiProtocols'],
    ['an unknown protocol', { dcApiProtocols: ['openid4vp'] }, 400, 'VALIDATION_FAILED', '/dcApiProtocols/0'],
    [
      'a repeated protocol',
      { dcApiProtocols: ['openid4vp-v1-signed', 'openid4vp-v1-signed'] },
      400,
      'VALIDATION_FAILED',
      '/dcApiProtocols',
    ],
    [
      'a redirect response mode',
      { responseMode: 'direct_post', expectedOrigins: undefined, dcApiProtocols: ['openid4vp-v1-signed'] },
      400,
      'VALIDATION_FAILED',
      '/dcApiProtocols',
    ],
    [
      'org-iso-mdoc with two expected origins',
      {
        expectedOrigins: [ORIGIN, 'https://www.rp.tessera.test'],
        dcApiProtocols: ['openid4vp-v1-signed', 'org-iso-mdoc'],
      },
      400,
      'DC_API_PROTOCOL_NOT_SUPPORTED',
      '/expectedOrigins',
    ],
    [
      'org-iso-mdoc for an SD-JWT VC query',
      { dcql: sdJwtQuery(), dcApiProtocols: ['org-iso-mdoc'] },
      400,
      'DC_API_PROTOCOL_NOT_SUPPORTED',
      '/dcql/credentials/0/format',
    ],
    [
      'org-iso-mdoc for value matching',
      {
        dcql: {
          ...mdocQuery(),
          credentials: [
            {
              ...mdocQuery().credentials[0]!,
              claims: [{ path: ['org.iso.18013.5.1', 'age_over_18'], values: [true] }],
            },
          ],
        },
        dcApiProtocols: ['org-iso-mdoc'],
      },
      400,
      'DC_API_PROTOCOL_NOT_SUPPORTED',
      '/dcql/credentials/0/claims/0/values',
    ],
    [
      'org-iso-mdoc for claim sets',
      {
        dcql: {
          ...mdocQuery(),
          credentials: [
            {
              ...mdocQuery().credentials[0]!,
              claims: [
                { id: 'a', path: ['org.iso.18013.5.1', 'family_name'] },
                { id: 'b', path: ['org.iso.18013.5.1', 'given_name'] },
              ],
              claim_sets: [['a'], ['b']],
            },
          ],
        },
        dcApiProtocols: ['org-iso-mdoc'],
      },
      400,
      'DC_API_PROTOCOL_NOT_SUPPORTED',
      '/dcql/credentials/0/claim_sets',
    ],
    [
      'org-iso-mdoc for several credentials per query',
      {
        dcql: { ...mdocQuery(), credentials: [{ ...mdocQuery().credentials[0]!, multiple: true }] },
        dcApiProtocols: ['org-iso-mdoc'],
      },
      400,
      'DC_API_PROTOCOL_NOT_SUPPORTED',
      '/dcql/credentials/0/multiple',
    ],
    [
      'org-iso-mdoc for alternatives between credentials',
      {
        dcql: {
          combine: 'all',
          credentials: [
            mdocQuery().credentials[0]!,
            { ...mdocQuery().credentials[0]!, id: 'photo', meta: { doctype_value: 'org.iso.23220.photoid.1' } },
          ],
          credential_sets: [{ options: [['mdl'], ['photo']], required: true }],
        },
        dcApiProtocols: ['org-iso-mdoc'],
      },
      400,
      'DC_API_PROTOCOL_NOT_SUPPORTED',
      '/dcql/credential_sets/0/options',
    ],
  ];

  for (const [name, change, status, code, path] of cases) {
    test(`${name}: ${status} ${code} at ${path}`, async ({ api, desk, harness }) => {
      const before = (await allStoredSessions(harness.testDb.database)).length;
      const body = { dcql: mdocQuery(), responseMode: 'dc_api', expectedOrigins: [ORIGIN], ...change };
      const created = await api('POST', `${oid4vpPath()}/presentation?verifierId=${desk}`, body);
      expect(created.status, created.raw).toBe(status);
      expect(created.body.code).toBe(code);
      expect(created.body.details).toEqual(expect.arrayContaining([expect.objectContaining({ path })]));
      expect(created.body.message.length).toBeGreaterThan(20);
      expect((await allStoredSessions(harness.testDb.database)).length).toBe(before);
    });
  }

  test('the create routes need a token, a role in the organisation and the right one', async ({ harness, desk }) => {
    const body = { dcql: mdocQuery(), responseMode: 'dc_api', expectedOrigins: [ORIGIN], dcApiProtocols: ALL };
    const url = `${oid4vpPath()}/presentation?verifierId=${desk}`;
    expect((await harness.call('POST', url, { body })).status).toBe(401);
    expect(
      (await harness.call('POST', url, { body, headers: await harness.auth('org-other', ['owner']) })).status,
    ).toBe(403);
    expect((await harness.call('POST', url, { body, headers: await harness.auth(ORG, ['member']) })).status).toBe(403);
  });
});

describe('the OpenAPI document', () => {
  test('describes dcApiProtocols, dcApiRequests, protocol, the reader certificate routes and the new codes', async ({
    harness,
  }) => {
    const docs = (await harness.call('GET', '/docs/json')).body;
    const base = '/v1/orgs/{orgId}/oid4vp';
    const text = JSON.stringify(docs);
    for (const path of ['/presentation', '/intent-based-verification-presentation']) {
      const post = docs.paths[`${base}${path}`].post;
      expect(JSON.stringify(post.requestBody)).toContain('dcApiProtocols');
      expect(JSON.stringify(post.responses['201'])).toContain('dcApiRequests');
      expect(post.description).toContain('DC_API_PROTOCOL_NOT_SUPPORTED');
    }
    const verify = docs.paths[`${base}/verify-authorization-response`].post;
    expect(JSON.stringify(verify.requestBody)).toContain('org-iso-mdoc');
    expect(verify.description).toContain('DC_API_PROTOCOL_MISMATCH');
    expect(Object.keys(docs.paths[`${base}/certificates/READER`]).sort()).toEqual(['get', 'put']);
    for (const protocol of ['openid4vp-v1-unsigned', 'openid4vp-v1-multisigned', 'deviceRequest', 'encryptionInfo'])
      expect(text).toContain(protocol);
  });
});
