import { describe, expect } from 'vitest';
import { ErrorCode } from '@tessera/contracts';
import { ecosystemTest as test } from '../support/fixtures.js';
import type { Harness } from '../support/harness.js';
import { noticeBody } from '../support/notice-body.js';
import { expectStatus } from '../support/responses.js';
import type { World } from '../support/world.js';

const UNKNOWN = '00000000-0000-4000-8000-000000000000';

describe('intents', () => {
  // Tests continue from one another: the first creates the intent the others use.
  let intentId: string;

  const create = (h: Harness, world: World, name: string, ecosystemId = world.ecosystemId) =>
    h.call('POST', `/v1/intent/ecosystem/${ecosystemId}`, {
      token: world.tokens.lead,
      body: { name, description: 'Proof of age' },
    });

  test('creates an intent (201) with the Intent shape', async ({ harness: h, world }) => {
    const response = await create(h, world, '  Age   Verification ');
    expectStatus(response, 201);
    expect(response.body.data).toEqual({
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      ecosystemId: world.ecosystemId,
      name: 'Age Verification',
      description: 'Proof of age',
      createDateTime: expect.any(String),
      lastChangedDateTime: expect.any(String),
      createdBy: 'user-lead',
      lastChangedBy: 'user-lead',
    });
    intentId = response.body.data.id;
  });

  test('keeps names unique per ecosystem ignoring case (409 INTENT_NAME_TAKEN)', async ({ harness: h, world }) => {
    expectStatus(await create(h, world, 'age verification'), 409, ErrorCode.INTENT_NAME_TAKEN);
    expectStatus(await create(h, world, 'Onboarding'), 201);
    const rename = await h.call('PUT', `/v1/intent/${intentId}`, {
      token: world.tokens.lead,
      body: { name: 'ONBOARDING', description: '' },
    });
    expectStatus(rename, 409, ErrorCode.INTENT_NAME_TAKEN);
  });

  test('lists intents paged for lead and member, newest first', async ({ harness: h, world }) => {
    const page = await h.call('GET', `/v1/intent/ecosystem/${world.ecosystemId}?pageSize=1`, {
      token: world.tokens.member,
    });
    expectStatus(page, 200);
    expect(page.body.data).toMatchObject({ totalItems: 2, totalPages: 2, page: 1, pageSize: 1 });
    expect(page.body.data.data[0].name).toBe('Onboarding');
    const second = await h.call('GET', `/v1/intent/ecosystem/${world.ecosystemId}?pageSize=1&pageNumber=2`, {
      token: world.tokens.lead,
    });
    expect(second.body.data.data[0].name).toBe('Age Verification');
    const beyond = await h.call('GET', `/v1/intent/ecosystem/${world.ecosystemId}?pageNumber=9`, {
      token: world.tokens.lead,
    });
    expect(beyond.body.data).toMatchObject({ totalItems: 2, page: 9, data: [] });
  });

  test('gets and updates an intent with a new lastChangedDateTime', async ({ harness: h, world }) => {
    const before = (await h.call('GET', `/v1/intent/${intentId}`, { token: world.tokens.member })).body.data;
    await new Promise((resolve) => setTimeout(resolve, 5));
    const updated = await h.call('PUT', `/v1/intent/${intentId}`, {
      token: world.tokens.lead,
      body: { name: 'Age check', description: 'Over 18' },
    });
    expectStatus(updated, 200);
    expect(updated.body.data).toMatchObject({
      id: intentId,
      name: 'Age check',
      description: 'Over 18',
      createDateTime: before.createDateTime,
    });
    expect(Date.parse(updated.body.data.lastChangedDateTime)).toBeGreaterThan(Date.parse(before.lastChangedDateTime));
  });

  test('answers unknown, malformed and foreign ids with 404 INTENT_NOT_FOUND / ECOSYSTEM_NOT_FOUND', async ({
    harness: h,
    world,
  }) => {
    for (const id of [UNKNOWN, 'not-a-uuid', 'urn:uuid:00000000-0000-4000-8000-000000000000']) {
      expectStatus(
        await h.call('GET', `/v1/intent/${id}`, { token: world.tokens.lead }),
        404,
        ErrorCode.INTENT_NOT_FOUND,
      );
      expectStatus(
        await h.call('PUT', `/v1/intent/${id}`, { token: world.tokens.lead, body: { name: 'x', description: '' } }),
        404,
        ErrorCode.INTENT_NOT_FOUND,
      );
      expectStatus(
        await h.call('DELETE', `/v1/intent/${id}`, { token: world.tokens.lead }),
        404,
        ErrorCode.INTENT_NOT_FOUND,
      );
      expectStatus(await create(h, world, 'x', id), 404, ErrorCode.ECOSYSTEM_NOT_FOUND);
      expectStatus(
        await h.call('GET', `/v1/intent/ecosystem/${id}`, { token: world.tokens.lead }),
        404,
        ErrorCode.ECOSYSTEM_NOT_FOUND,
      );
    }
  });

  test('validates intent bodies', async ({ harness: h, world }) => {
    for (const body of [
      {},
      { name: '', description: '' },
      { name: '   ', description: '' },
      { name: 'n'.repeat(101), description: '' },
      { name: 'ok' },
      { name: 'ok', description: 'x', id: 'mine' },
    ]) {
      expectStatus(
        await h.call('POST', `/v1/intent/ecosystem/${world.ecosystemId}`, { token: world.tokens.lead, body }),
        400,
        ErrorCode.VALIDATION_FAILED,
      );
    }
  });

  test('refuses to delete an intent in use (409 IN_USE) and deletes it once freed', async ({ harness: h, world }) => {
    const template = await h.call('POST', `/v1/intent/${intentId}/template`, {
      token: world.tokens.lead,
      body: { templateId: 'tpl-1', role: 'issuer' },
    });
    expectStatus(template, 201);
    expectStatus(
      await h.call('POST', `/v1/intent/${intentId}/notice`, { token: world.tokens.lead, body: noticeBody() }),
      201,
    );
    expectStatus(await h.call('DELETE', `/v1/intent/${intentId}`, { token: world.tokens.lead }), 409, ErrorCode.IN_USE);
    expectStatus(
      await h.call('DELETE', `/v1/intent/${intentId}/template/${template.body.data.id}`, { token: world.tokens.lead }),
      200,
    );
    expectStatus(await h.call('DELETE', `/v1/intent/${intentId}`, { token: world.tokens.lead }), 409, ErrorCode.IN_USE);
    const onboarding = (
      await h.call('GET', `/v1/intent/ecosystem/${world.ecosystemId}`, { token: world.tokens.lead })
    ).body.data.data.find((i: { name: string }) => i.name === 'Onboarding');
    const deleted = await h.call('DELETE', `/v1/intent/${onboarding.id}`, { token: world.tokens.lead });
    expectStatus(deleted, 200);
    expect(deleted.body.data.id).toBe(onboarding.id);
    expectStatus(
      await h.call('GET', `/v1/intent/${onboarding.id}`, { token: world.tokens.lead }),
      404,
      ErrorCode.INTENT_NOT_FOUND,
    );
  });

  test("keeps ecosystems apart: another ecosystem's lead cannot see this one's intents", async ({
    harness: h,
    world,
  }) => {
    const otherLead = await h.idp.mint({
      sub: 'user-other',
      email: 'other@example.org',
      orgRoles: { 'org-other': ['owner'] },
    });
    await h.call('PUT', '/v1/organisations/org-other', { token: otherLead, body: { name: 'Other' } });
    await h.call('POST', '/v1/invitations', { token: world.tokens.admin, body: { email: 'other@example.org' } });
    expectStatus(
      await h.call('POST', '/v1/ecosystem/org-other/create', {
        token: otherLead,
        body: { name: 'Other Space', description: '' },
      }),
      201,
    );
    expectStatus(await h.call('GET', `/v1/intent/${intentId}`, { token: otherLead }), 404, ErrorCode.INTENT_NOT_FOUND);
    expectStatus(
      await h.call('GET', `/v1/intent/ecosystem/${world.ecosystemId}`, { token: otherLead }),
      404,
      ErrorCode.ECOSYSTEM_NOT_FOUND,
    );
    expectStatus(
      await h.call('GET', `/v1/ecosystem/members?ecosystemId=${world.ecosystemId}`, { token: otherLead }),
      404,
      ErrorCode.ECOSYSTEM_NOT_FOUND,
    );
  });
});
