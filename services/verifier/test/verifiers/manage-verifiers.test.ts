import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHarness, type Harness } from '../support/harness.js';
import { ORG, OTHER_ORG, sdJwtQuery } from '../support/dcql-queries.js';

let h: Harness;
beforeAll(async () => {
  h = await createHarness();
});
afterAll(() => h.close());

const base = (org = ORG) => `/v1/orgs/${org}/oid4vp/verifier`;
async function send(method: string, url: string, payload?: unknown, org = ORG) {
  return h.app.inject({ method: method as 'GET', url, headers: await h.auth(org), ...(payload !== undefined ? { payload: payload as object } : {}) });
}

describe('verifiers', () => {
  it('creates, reads, updates and deletes a verifier', async () => {
    const created = await send('POST', base(), { verifierId: 'kiosk', clientMetadata: { client_name: 'Kiosk' } });
    expect(created.statusCode).toBe(201);
    expect(created.json()).toMatchObject({ statusCode: 201, message: expect.any(String), data: { verifierId: 'kiosk', clientMetadata: { client_name: 'Kiosk' } } });
    const { id, createDateTime } = created.json().data;
    expect(id).toMatch(/^[0-9a-f-]{36}$/);

    const read = await send('GET', `${base()}/kiosk`);
    expect(read.json().data).toMatchObject({ id, verifierId: 'kiosk', createDateTime });

    const updated = await send('PUT', `${base()}/kiosk`, { clientMetadata: { client_name: 'Kiosk 2', logo_uri: 'https://acme.example/l.png' } });
    expect(updated.statusCode).toBe(200);
    expect(updated.json().data.clientMetadata).toEqual({ client_name: 'Kiosk 2', logo_uri: 'https://acme.example/l.png' });

    const cleared = await send('PUT', `${base()}/kiosk`, {});
    expect(cleared.json().data.clientMetadata).toBeUndefined();

    const deleted = await send('DELETE', `${base()}/kiosk`);
    expect(deleted.statusCode).toBe(200);
    expect(deleted.json().data.verifierId).toBe('kiosk');
    expect((await send('GET', `${base()}/kiosk`)).json()).toMatchObject({ statusCode: 404, code: 'VERIFIER_NOT_FOUND' });
  });

  it('keeps verifierId unique per organisation (409) but not across organisations', async () => {
    expect((await send('POST', base(), { verifierId: 'dup' })).statusCode).toBe(201);
    const again = await send('POST', base(), { verifierId: 'dup' });
    expect(again.statusCode).toBe(409);
    expect(again.json()).toMatchObject({ code: 'VERIFIER_EXISTS', error: 'Conflict' });
    expect((await send('POST', base(OTHER_ORG), { verifierId: 'dup' }, OTHER_ORG)).statusCode).toBe(201);
  });

  it('lists a page, newest first, only of this organisation', async () => {
    const org = 'org-list';
    for (const id of ['a', 'b', 'c']) expect((await send('POST', base(org), { verifierId: id }, org)).statusCode).toBe(201);
    const page = await send('GET', `${base(org)}?pageSize=2`, undefined, org);
    expect(page.json().data).toMatchObject({ totalItems: 3, totalPages: 2, page: 1, pageSize: 2 });
    expect(page.json().data.data.map((v: { verifierId: string }) => v.verifierId)).toEqual(['c', 'b']);
    const second = await send('GET', `${base(org)}?pageNumber=2&pageSize=2`, undefined, org);
    expect(second.json().data.data.map((v: { verifierId: string }) => v.verifierId)).toEqual(['a']);
    const empty = await send('GET', base('org-empty'), undefined, 'org-empty');
    expect(empty.statusCode).toBe(200);
    expect(empty.json().data).toMatchObject({ totalItems: 0, data: [] });
    expect((await send('GET', `${base(org)}?pageSize=101`, undefined, org)).statusCode).toBe(400);
    expect((await send('GET', `${base(org)}?pageNumber=0`, undefined, org)).statusCode).toBe(400);
  });

  it('answers 404 for another organisation\'s verifier on every route', async () => {
    await send('POST', base(), { verifierId: 'mine' });
    for (const method of ['GET', 'PUT', 'DELETE']) {
      const response = await send(method, `${base(OTHER_ORG)}/mine`, method === 'PUT' ? {} : undefined, OTHER_ORG);
      expect(response.statusCode).toBe(404);
    }
    expect((await send('GET', `${base()}/mine`)).statusCode).toBe(200);
  });

  it('refuses malformed input with details and stores nothing', async () => {
    const cases: unknown[] = [
      {},
      { verifierId: '' },
      { verifierId: 'has space' },
      { verifierId: 'ok', extra: 1 },
      { verifierId: 'ok', clientMetadata: { client_name: 'x', color: 'red' } },
      { verifierId: 'ok', clientMetadata: { logo_uri: 'javascript:alert(1)' } },
    ];
    for (const payload of cases) {
      const response = await send('POST', base('org-bad'), payload, 'org-bad');
      expect(response.statusCode, JSON.stringify(payload)).toBe(400);
      expect(response.json()).toMatchObject({ code: 'VALIDATION_FAILED', details: expect.any(Array) });
    }
    const notJson = await h.app.inject({ method: 'POST', url: base('org-bad'), headers: { ...(await h.auth('org-bad')), 'content-type': 'application/json' }, payload: '{' });
    expect(notJson.statusCode).toBe(400);
    const wrongType = await h.app.inject({ method: 'POST', url: base('org-bad'), headers: { ...(await h.auth('org-bad')), 'content-type': 'text/plain' }, payload: 'x' });
    expect(wrongType.statusCode).toBe(415);
    expect((await send('GET', base('org-bad'), undefined, 'org-bad')).json().data.totalItems).toBe(0);
  });

  it('refuses to delete a verifier with open sessions (409 VERIFIER_IN_USE), allows it once they expired', async () => {
    await send('POST', base(), { verifierId: 'busy' });
    const session = await send('POST', `/v1/orgs/${ORG}/oid4vp/presentation?verifierId=busy`, { dcql: sdJwtQuery(), responseMode: 'direct_post', expiresInSeconds: 60 });
    expect(session.statusCode).toBe(201);
    const refused = await send('DELETE', `${base()}/busy`);
    expect(refused.statusCode).toBe(409);
    expect(refused.json().code).toBe('VERIFIER_IN_USE');
    h.clock.offsetMs = 61_000;
    try {
      expect((await send('DELETE', `${base()}/busy`)).statusCode).toBe(200);
    } finally {
      h.clock.offsetMs = 0;
    }
  });
});
