import { describe, expect } from 'vitest';
import { ErrorCode } from '@tessera/contracts';
import { ecosystemTest as test } from '../support/fixtures.js';
import { expectStatus } from '../support/responses.js';
import type { World } from '../support/world.js';

describe('paging and malformed input', () => {
  test.beforeAll(async ({ harness: h, world }) => {
    for (let i = 0; i < 12; i++) {
      await h.call('POST', `/v1/intent/ecosystem/${world.ecosystemId}`, {
        token: world.tokens.lead,
        body: { name: `Intent ${i}`, description: '' },
      });
    }
  });

  const lists = (world: World) => [
    `/v1/intent/ecosystem/${world.ecosystemId}?`,
    `/v1/ecosystem/members?ecosystemId=${world.ecosystemId}&`,
    `/v1/ecosystem/get-ecosystem-orgs?ecosystemId=${world.ecosystemId}&`,
    `/v1/ecosystem/invitations?ecosystemId=${world.ecosystemId}&`,
    '/v1/ecosystem?',
  ];

  test('defaults to page 1 of 10 and reports totals', async ({ harness: h, world }) => {
    const response = await h.call('GET', `/v1/intent/ecosystem/${world.ecosystemId}`, { token: world.tokens.lead });
    expect(response.body.data).toMatchObject({ totalItems: 12, totalPages: 2, page: 1, pageSize: 10 });
    expect(response.body.data.data).toHaveLength(10);
    const last = await h.call('GET', `/v1/intent/ecosystem/${world.ecosystemId}?pageNumber=2&pageSize=10`, {
      token: world.tokens.lead,
    });
    expect(last.body.data.data).toHaveLength(2);
    const max = await h.call('GET', `/v1/intent/ecosystem/${world.ecosystemId}?pageSize=100`, {
      token: world.tokens.lead,
    });
    expect(max.body.data).toMatchObject({ totalPages: 1, pageSize: 100 });
  });

  test('answers 400 for page bounds on every paged list', async ({ harness: h, world }) => {
    for (const list of lists(world)) {
      for (const paging of [
        'pageSize=0',
        'pageSize=101',
        'pageNumber=0',
        'pageNumber=-1',
        'pageSize=abc',
        'pageNumber=1.5',
      ]) {
        expectStatus(
          await h.call('GET', `${list}${paging}`, { token: world.tokens.lead }),
          400,
          ErrorCode.VALIDATION_FAILED,
        );
      }
    }
    for (const paging of ['pageSize=0', 'pageSize=101']) {
      expectStatus(
        await h.call('GET', `/v1/invitations?${paging}`, { token: world.tokens.admin }),
        400,
        ErrorCode.VALIDATION_FAILED,
      );
    }
  });

  test('answers 400 for malformed ids in query and body, and never a 500', async ({ harness: h, world }) => {
    for (const query of ['ecosystemId=nope', 'ecosystemId=urn:uuid:00000000-0000-4000-8000-000000000000', '']) {
      expectStatus(
        await h.call('GET', `/v1/ecosystem/members?${query}`, { token: world.tokens.lead }),
        400,
        ErrorCode.VALIDATION_FAILED,
      );
      expectStatus(
        await h.call('GET', `/v1/ecosystem/get-ecosystem-orgs?${query}`, { token: world.tokens.lead }),
        400,
        ErrorCode.VALIDATION_FAILED,
      );
    }
    expectStatus(
      await h.call('POST', '/v1/ecosystem/update-invitation-status', {
        token: world.tokens.invited,
        body: { status: 'accepted', ecosystemId: 'urn:uuid:00000000-0000-4000-8000-000000000000' },
      }),
      400,
      ErrorCode.VALIDATION_FAILED,
    );
    expectStatus(
      await h.call('GET', `/v1/ecosystem?orgId=${encodeURIComponent('a b')}`, { token: world.tokens.lead }),
      400,
      ErrorCode.VALIDATION_FAILED,
    );
  });

  test('answers bad JSON, wrong content type and oversized bodies with the platform error body', async ({
    harness: h,
    world,
  }) => {
    const url = `/v1/intent/ecosystem/${world.ecosystemId}`;
    const auth = { authorization: `Bearer ${world.tokens.lead}` };
    const badJson = await h.app.inject({
      method: 'POST',
      url,
      headers: { ...auth, 'content-type': 'application/json' },
      payload: '{"name":',
    });
    expect(badJson.json()).toMatchObject({ statusCode: 400, code: ErrorCode.VALIDATION_FAILED });
    const text = await h.app.inject({
      method: 'POST',
      url,
      headers: { ...auth, 'content-type': 'text/plain' },
      payload: 'name',
    });
    expect(text.json()).toMatchObject({ statusCode: 415, code: ErrorCode.UNSUPPORTED_MEDIA_TYPE });
    const huge = await h.call('POST', url, {
      token: world.tokens.lead,
      body: { name: 'big', description: 'x'.repeat(70000) },
    });
    expectStatus(huge, 413, ErrorCode.BODY_TOO_LARGE);
    expect((await h.call('GET', `${url}?pageSize=100`, { token: world.tokens.lead })).body.data.totalItems).toBe(12);
  });

  test('answers unknown routes with 404 NOT_FOUND and serves the OpenAPI document', async ({ harness: h, world }) => {
    expectStatus(await h.call('GET', '/v1/nothing-here', { token: world.tokens.lead }), 404, ErrorCode.NOT_FOUND);
    const doc = await h.call('GET', '/docs/json');
    expect(Object.keys(doc.body.paths)).toEqual(
      expect.arrayContaining(['/v1/invitations', '/v1/ecosystem/{orgId}/create', '/v1/intent/{intentId}/notice']),
    );
  });
});
