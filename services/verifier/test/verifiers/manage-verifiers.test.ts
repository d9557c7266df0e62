import { describe, expect } from 'vitest';
import { sdJwtQuery } from '../support/dcql-queries.js';
import { verifierTest as test } from '../support/fixtures.js';
import { ORG, OTHER_ORG } from '../support/management.js';

const base = (org = ORG) => `/v1/orgs/${org}/oid4vp/verifier`;

describe('verifiers', () => {
  test('creates, reads, updates and deletes a verifier', async ({ api }) => {
    const created = await api('POST', base(), { verifierId: 'kiosk', clientMetadata: { client_name: 'Kiosk' } });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      statusCode: 201,
      message: expect.any(String),
      data: { verifierId: 'kiosk', clientMetadata: { client_name: 'Kiosk' } },
    });
    const { id, createDateTime } = created.body.data;
    expect(id).toMatch(/^[0-9a-f-]{36}$/);

    const read = await api('GET', `${base()}/kiosk`);
    expect(read.body.data).toMatchObject({ id, verifierId: 'kiosk', createDateTime });

    const updated = await api('PUT', `${base()}/kiosk`, {
      clientMetadata: { client_name: 'Kiosk 2', logo_uri: 'https://acme.example/l.png' },
    });
    expect(updated.status).toBe(200);
    expect(updated.body.data.clientMetadata).toEqual({
      client_name: 'Kiosk 2',
      logo_uri: 'https://acme.example/l.png',
    });

    const cleared = await api('PUT', `${base()}/kiosk`, {});
    expect(cleared.body.data.clientMetadata).toBeUndefined();

    const deleted = await api('DELETE', `${base()}/kiosk`);
    expect(deleted.status).toBe(200);
    expect(deleted.body.data.verifierId).toBe('kiosk');
    expect((await api('GET', `${base()}/kiosk`)).body).toMatchObject({ statusCode: 404, code: 'VERIFIER_NOT_FOUND' });
  });

  test('keeps verifierId unique per organisation (409) but not across organisations', async ({ api }) => {
    expect((await api('POST', base(), { verifierId: 'dup' })).status).toBe(201);
    const again = await api('POST', base(), { verifierId: 'dup' });
    expect(again.status).toBe(409);
    expect(again.body).toMatchObject({ code: 'VERIFIER_EXISTS', error: 'Conflict' });
    expect((await api('POST', base(OTHER_ORG), { verifierId: 'dup' }, { org: OTHER_ORG })).status).toBe(201);
  });

  test('lists a page, newest first, only of this organisation', async ({ api }) => {
    const org = 'org-list';
    for (const id of ['a', 'b', 'c'])
      expect((await api('POST', base(org), { verifierId: id }, { org })).status).toBe(201);
    const page = await api('GET', `${base(org)}?pageSize=2`, undefined, { org });
    expect(page.body.data).toMatchObject({ totalItems: 3, totalPages: 2, page: 1, pageSize: 2 });
    expect(page.body.data.data.map((v: { verifierId: string }) => v.verifierId)).toEqual(['c', 'b']);
    const second = await api('GET', `${base(org)}?pageNumber=2&pageSize=2`, undefined, { org });
    expect(second.body.data.data.map((v: { verifierId: string }) => v.verifierId)).toEqual(['a']);
    const empty = await api('GET', base('org-empty'), undefined, { org: 'org-empty' });
    expect(empty.status).toBe(200);
    expect(empty.body.data).toMatchObject({ totalItems: 0, data: [] });
    expect((await api('GET', `${base(org)}?pageSize=101`, undefined, { org })).status).toBe(400);
    expect((await api('GET', `${base(org)}?pageNumber=0`, undefined, { org })).status).toBe(400);
  });

  test("answers 404 for another organisation's verifier on every route", async ({ api }) => {
    await api('POST', base(), { verifierId: 'mine' });
    for (const method of ['GET', 'PUT', 'DELETE'] as const) {
      const response = await api(method, `${base(OTHER_ORG)}/mine`, method === 'PUT' ? {} : undefined, {
        org: OTHER_ORG,
      });
      expect(response.status).toBe(404);
    }
    expect((await api('GET', `${base()}/mine`)).status).toBe(200);
  });

  test('refuses malformed input with details and stores nothing', async ({ api }) => {
    const org = 'org-bad';
    const cases: unknown[] = [
      {},
      { verifierId: '' },
      { verifierId: 'has space' },
      { verifierId: 'ok', extra: 1 },
      { verifierId: 'ok', clientMetadata: { client_name: 'x', color: 'red' } },
      { verifierId: 'ok', clientMetadata: { logo_uri: 'javascript:alert(1)' } },
    ];
    for (const payload of cases) {
      const response = await api('POST', base(org), payload, { org });
      expect(response.status, JSON.stringify(payload)).toBe(400);
      expect(response.body).toMatchObject({ code: 'VALIDATION_FAILED', details: expect.any(Array) });
    }
    const notJson = await api('POST', base(org), '{', { org, headers: { 'content-type': 'application/json' } });
    expect(notJson.status).toBe(400);
    const wrongType = await api('POST', base(org), 'x', { org, headers: { 'content-type': 'text/plain' } });
    expect(wrongType.status).toBe(415);
    expect((await api('GET', base(org), undefined, { org })).body.data.totalItems).toBe(0);
  });

  test('refuses to delete a verifier with open sessions (409 VERIFIER_IN_USE), allows it once they expired', async ({
    harness: h,
    api,
  }) => {
    await api('POST', base(), { verifierId: 'busy' });
    const session = await api('POST', `/v1/orgs/${ORG}/oid4vp/presentation?verifierId=busy`, {
      dcql: sdJwtQuery(),
      responseMode: 'direct_post',
      expiresInSeconds: 60,
    });
    expect(session.status).toBe(201);
    const refused = await api('DELETE', `${base()}/busy`);
    expect(refused.status).toBe(409);
    expect(refused.body.code).toBe('VERIFIER_IN_USE');
    h.clock.offsetMs = 61_000;
    try {
      expect((await api('DELETE', `${base()}/busy`)).status).toBe(200);
    } finally {
      h.clock.offsetMs = 0;
    }
  });
});
