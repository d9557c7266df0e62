import { describe, expect } from 'vitest';
import { decodeJwt } from 'jose';
import { answerWithCredential } from '../support/answers.js';
import { bothQuery, sdJwtQuery } from '../support/dcql-queries.js';
import { e2eTest } from '../support/fixtures.js';
import { PID_VCT } from '../support/issuers.js';
import { ORG, oid4vpPath } from '../support/management.js';
import { storedSession } from '../support/stored-rows.js';
import { toPresentationSession } from '../../src/presenters/presentation-session.js';

// The four answers of a whole verification (create, request object, direct_post, read the
// result) and the session read, over real HTTP: each body whole, field by field. Their
// routes answer through serializers compiled from the response schemas, which leave out
// any field the schema does not name; these tests fail when a schema misses one.
// `createOverHttp(body)`: POST presentation for ORG's `desk` over HTTP, as a relying party sends it.
const test = e2eTest().extend(
  'createOverHttp',
  { scope: 'file' },
  ({ e2e, harness, desk }) =>
    async (body: Record<string, unknown>) =>
      fetch(`${e2e.url}${oid4vpPath()}/presentation?verifierId=${desk}`, {
        method: 'POST',
        headers: { ...(await harness.auth(ORG)), 'content-type': 'application/json' },
        body: JSON.stringify(body),
      }),
);

const ISO_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

describe('the bodies of a whole verification, over HTTP', () => {
  test('POST presentation (direct_post): the envelope and every field of the created session', async ({
    harness,
    createOverHttp,
  }) => {
    const response = await createOverHttp({
      dcql: sdJwtQuery(),
      responseMode: 'direct_post',
      payloadState: 'state-of-the-relying-party-0001',
      expiresInSeconds: 600,
    });
    expect(response.status).toBe(201);
    expect(response.headers.get('content-type')).toBe('application/json; charset=utf-8');
    const body = (await response.json()) as { data: { id: string } };
    const row = await storedSession(harness.testDb.database, body.data.id);
    expect(row).toBeDefined();
    expect(body).toStrictEqual({
      statusCode: 201,
      message: 'Presentation request created.',
      data: JSON.parse(JSON.stringify(toPresentationSession(row!, new Date()))),
    });
    expect(Object.keys(body.data).sort()).toEqual(
      [
        'authorizationRequestId',
        'authorizationRequestUri',
        'clientId',
        'createdAt',
        'expiresAt',
        'id',
        'nonce',
        'payloadState',
        'publicVerifierId',
        'requestUri',
        'responseMode',
        'responseUri',
        'state',
        'updatedAt',
      ].sort(),
    );
    expect(body.data).toMatchObject({
      id: expect.stringMatching(UUID),
      payloadState: 'state-of-the-relying-party-0001',
      responseMode: 'direct_post',
      state: 'RequestCreated',
      createdAt: expect.stringMatching(ISO_TIME),
    });
  });

  test('POST presentation (dc_api): the DC API requests, origins and protocols as well', async ({
    harness,
    createOverHttp,
  }) => {
    const response = await createOverHttp({
      dcql: sdJwtQuery(),
      responseMode: 'dc_api',
      expectedOrigins: ['https://rp.tessera.test'],
      dcApiProtocols: ['openid4vp-v1-signed', 'openid4vp-v1-unsigned'],
    });
    expect(response.status).toBe(201);
    const { data } = (await response.json()) as {
      data: { id: string; dcApiRequest: unknown; dcApiRequests: Array<{ protocol: string; data: unknown }> };
    };
    const row = await storedSession(harness.testDb.database, data.id);
    const { dcApiRequest, dcApiRequests, ...session } = data;
    expect(session).toStrictEqual(JSON.parse(JSON.stringify(toPresentationSession(row!, new Date()))));
    expect(session).toMatchObject({
      expectedOrigins: ['https://rp.tessera.test'],
      dcApiProtocols: ['openid4vp-v1-signed', 'openid4vp-v1-unsigned'],
    });
    expect(dcApiRequests.map((request) => request.protocol)).toEqual(['openid4vp-v1-signed', 'openid4vp-v1-unsigned']);
    expect(dcApiRequests[0]).toStrictEqual({ protocol: 'openid4vp-v1-signed', data: { request: expect.any(String) } });
    expect(dcApiRequests[1]!.data).toMatchObject({
      nonce: row!.nonce,
      dcql_query: { credentials: sdJwtQuery().credentials },
    });
    expect(dcApiRequest).toStrictEqual(dcApiRequests[0]);
  });

  test('GET request_uri: the signed request object as it is, typed and not cached', async ({ e2e: e }) => {
    const session = await e.createSession({ dcql: sdJwtQuery(), responseMode: 'direct_post' });
    const requestUri = new URL(session.authorizationRequestUri!).searchParams.get('request_uri')!;
    const response = await e.wallet.fetch(requestUri);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/oauth-authz-req+jwt');
    expect(response.headers.get('cache-control')).toBe('no-store');
    const text = await response.text();
    expect(text).toMatch(/^[\w-]+\.[\w-]+\.[\w-]+$/);
    expect(decodeJwt(text)).toMatchObject({
      nonce: session.nonce,
      state: session.payloadState,
      response_mode: 'direct_post',
      response_uri: session.responseUri,
      dcql_query: { credentials: sdJwtQuery().credentials },
    });
  });

  test('POST direct_post: exactly {} when verified; then the result and the session with every field', async ({
    e2e: e,
    harness,
  }) => {
    const session = await e.createSession({ dcql: bothQuery(), responseMode: 'direct_post' });
    expect(await answerWithCredential(e, 'sd-jwt', session)).toEqual({ status: 200, body: {} });

    const headers = await harness.auth(ORG);
    const result = await fetch(
      `${e.url}${oid4vpPath()}/verifier-presentation-response?verificationPresentationId=${session.id}`,
      { headers },
    );
    expect(result.status).toBe(200);
    expect(await result.json()).toStrictEqual({
      statusCode: 200,
      message: 'Verified presentation.',
      data: {
        id: session.id,
        state: 'ResponseVerified',
        verifiedAt: expect.stringMatching(ISO_TIME),
        presentations: [
          {
            credentialQueryId: 'pid',
            format: 'dc+sd-jwt',
            vct: PID_VCT,
            issuer: expect.stringContaining('PID Issuer'),
            // The asked names, and the SD-JWT's always-disclosed claims (iss, vct, iat, exp).
            claims: {
              given_name: 'Erika',
              family_name: 'Mustermann',
              iss: 'https://issuer.tessera.test',
              vct: PID_VCT,
              iat: expect.any(Number),
              exp: expect.any(Number),
            },
            holderBinding: true,
            validUntil: expect.stringMatching(ISO_TIME),
            droppedClaims: [],
          },
        ],
        credentialSets: [{ options: [['pid'], ['mdl']], required: true, satisfiedOption: 0 }],
      },
    });

    const read = await fetch(`${e.url}${oid4vpPath()}/verifier-presentation?id=${session.id}`, { headers });
    expect(read.status).toBe(200);
    const row = await storedSession(harness.testDb.database, session.id);
    expect(await read.json()).toStrictEqual({
      statusCode: 200,
      message: 'Presentation session.',
      data: JSON.parse(JSON.stringify(toPresentationSession(row!, new Date()))),
    });
  });

  test('POST direct_post with a redirect: exactly { redirect_uri }', async ({ e2e: e }) => {
    const session = await e.createSession({
      dcql: sdJwtQuery(),
      responseMode: 'direct_post',
      redirectUri: 'https://rp.tessera.test/done',
    });
    const answered = await answerWithCredential(e, 'sd-jwt', session);
    expect(answered.status).toBe(200);
    expect(Object.keys(answered.body as object)).toEqual(['redirect_uri']);
  });
});
