import { describe, expect } from 'vitest';
import { ErrorCode } from '@tessera/contracts';
import { harnessTest } from '../support/fixtures.js';
import { noticeBody } from '../support/notice-body.js';
import { expectStatus } from '../support/responses.js';
import { createIntentAsLead } from '../support/world.js';

const test = harnessTest().extend('intentId', { scope: 'file' }, async ({ harness, world }) =>
  createIntentAsLead(harness, world, 'Age check'),
);
const noticeOf = (intentId: string) => `/v1/intent/${intentId}/notice`;

// Tests continue from one another: versions accumulate on one intent's notice.
describe('intent notices', () => {
  test('answers 404 before a notice exists', async ({ harness: h, world, intentId }) => {
    const url = noticeOf(intentId);
    expectStatus(await h.call('GET', url, { token: world.tokens.member }), 404, ErrorCode.NOT_FOUND);
    expectStatus(await h.call('PUT', url, { token: world.tokens.lead, body: noticeBody() }), 404, ErrorCode.NOT_FOUND);
  });

  test('creates version 1 with the notice fields and the default language', async ({ harness: h, world, intentId }) => {
    const url = noticeOf(intentId);
    const body = noticeBody({
      recipients: [{ name: 'Auditor', role: 'processor' }],
      storageLocations: ['DE'],
      rightsUrl: 'https://lead.example/rights',
      noticeUrl: 'https://lead.example/notice',
    });
    const response = await h.call('POST', url, { token: world.tokens.lead, body });
    expectStatus(response, 201);
    expect(response.body.data).toEqual({
      id: expect.any(String),
      intentId,
      version: 1,
      createdBy: 'user-lead',
      createDateTime: expect.any(String),
      language: 'en',
      ...body,
    });
    expectStatus(await h.call('POST', url, { token: world.tokens.lead, body }), 409, ErrorCode.NOTICE_EXISTS);
  });

  test('keeps every version: PUT makes n+1, GET answers the latest or ?version=n', async ({
    harness: h,
    world,
    intentId,
  }) => {
    const url = noticeOf(intentId);
    const v2 = await h.call('PUT', url, {
      token: world.tokens.member,
      body: noticeBody({ title: 'Second', language: 'de-DE' }),
    });
    expectStatus(v2, 200);
    expect(v2.body.data).toMatchObject({ version: 2, title: 'Second', language: 'de-DE', createdBy: 'user-member' });
    const v3 = await h.call('PUT', url, { token: world.tokens.lead, body: noticeBody({ title: 'Third' }) });
    expect(v3.body.data.version).toBe(3);
    expect(v3.body.data.id).toBe(v2.body.data.id);
    const latest = await h.call('GET', url, { token: world.tokens.member });
    expect(latest.body.data).toMatchObject({ version: 3, title: 'Third' });
    const first = await h.call('GET', `${url}?version=1`, { token: world.tokens.lead });
    expect(first.body.data).toMatchObject({
      version: 1,
      title: 'Age check at the counter',
      recipients: [{ name: 'Auditor', role: 'processor' }],
    });
    expectStatus(await h.call('GET', `${url}?version=4`, { token: world.tokens.lead }), 404, ErrorCode.NOT_FOUND);
    expectStatus(
      await h.call('GET', `${url}?version=0`, { token: world.tokens.lead }),
      400,
      ErrorCode.VALIDATION_FAILED,
    );
    expectStatus(
      await h.call('GET', `${url}?version=two`, { token: world.tokens.lead }),
      400,
      ErrorCode.VALIDATION_FAILED,
    );
  });

  test('answers JSON-LD with DPV terms for Accept: application/ld+json', async ({ harness: h, world, intentId }) => {
    const url = noticeOf(intentId);
    const response = await h.call('GET', `${url}?version=1`, {
      token: world.tokens.member,
      headers: { accept: 'application/ld+json' },
    });
    expect(response.status).toBe(200);
    expect(response.headers['content-type']).toContain('application/ld+json');
    expect(response.headers.vary).toContain('Accept');
    const notice = (await h.call('GET', `${url}?version=1`, { token: world.tokens.member })).body.data;
    expect(response.body).toMatchObject({
      '@context': { dpv: 'https://w3id.org/dpv#', pd: 'https://w3id.org/dpv/pd#', dct: 'http://purl.org/dc/terms/' },
      '@id': `urn:uuid:${notice.id}#v1`,
      '@type': 'dpv:ConsentNotice',
      'dct:title': 'Age check at the counter',
      'dct:language': 'en',
      'dpv:hasDataController': {
        '@type': 'dpv:DataController',
        'dpv:hasName': 'Lead Org',
        'dpv:hasContact': 'privacy@lead.example',
      },
      'dpv:hasPurpose': [{ '@id': 'dpv:ServiceProvision', 'dct:description': 'Check that the customer is of age' }],
      'dpv:hasPersonalData': [{ '@id': 'pd:Age' }],
      'dpv:hasProcessing': [{ '@id': 'dpv:Collect' }],
      'dpv:hasLegalBasis': { '@id': 'dpv:Consent' },
      'dpv:hasStorageCondition': { '@type': 'dpv:StorageDuration', 'dpv:hasDuration': 'P30D' },
      'dpv:hasLocation': [{ '@id': 'loc:DE' }],
    });
  });

  test('negotiates: JSON by default and for */*, 406 NOT_ACCEPTABLE when neither form is acceptable', async ({
    harness: h,
    world,
    intentId,
  }) => {
    const url = noticeOf(intentId);
    for (const accept of ['application/json', '*/*', 'application/ld+json;q=0.5, application/json']) {
      const response = await h.call('GET', url, { token: world.tokens.lead, headers: { accept } });
      expect(response.body.data.version, accept).toBe(3);
    }
    expectStatus(
      await h.call('GET', url, { token: world.tokens.lead, headers: { accept: 'text/html' } }),
      406,
      ErrorCode.NOT_ACCEPTABLE,
    );
  });

  test('validates notice bodies (DPV terms, ISO 8601 durations, at least one purpose and category)', async ({
    harness: h,
    world,
    intentId,
  }) => {
    const url = noticeOf(intentId);
    const bad = [
      noticeBody({ purposes: [] }),
      noticeBody({ personalDataCategories: [] }),
      noticeBody({ legalBasis: 'consent' }),
      noticeBody({ retention: { duration: '30 days' } }),
      noticeBody({ language: 'english!' }),
      noticeBody({ storageLocations: ['Germany'] }),
      noticeBody({ controller: { name: 'x' } }),
      noticeBody({ unknownField: 1 }),
      { title: 'Only a title' },
    ];
    for (const body of bad)
      expectStatus(await h.call('PUT', url, { token: world.tokens.lead, body }), 400, ErrorCode.VALIDATION_FAILED);
    expect((await h.call('GET', url, { token: world.tokens.lead })).body.data.version).toBe(3);
  });

  test('answers malformed and unknown intent ids with 404 INTENT_NOT_FOUND', async ({ harness: h, world }) => {
    for (const id of ['nope', '00000000-0000-4000-8000-000000000000']) {
      expectStatus(
        await h.call('GET', `/v1/intent/${id}/notice`, { token: world.tokens.lead }),
        404,
        ErrorCode.INTENT_NOT_FOUND,
      );
      expectStatus(
        await h.call('POST', `/v1/intent/${id}/notice`, { token: world.tokens.lead, body: noticeBody() }),
        404,
        ErrorCode.INTENT_NOT_FOUND,
      );
    }
  });
});
