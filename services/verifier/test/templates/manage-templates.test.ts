import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHarness, type Harness } from '../support/harness.js';
import { mdocQuery, ORG, OTHER_ORG, sdJwtQuery } from '../support/dcql-queries.js';

let h: Harness;
beforeAll(async () => {
  h = await createHarness();
});
afterAll(() => h.close());

const base = (org = ORG) => `/v1/orgs/${org}/oid4vp/verification-template`;
async function send(method: string, url: string, payload?: unknown, org = ORG) {
  return h.app.inject({ method: method as 'GET', url, headers: await h.auth(org), ...(payload !== undefined ? { payload: payload as object } : {}) });
}
const template = (query: unknown = sdJwtQuery(), extra: Record<string, unknown> = {}) => ({ name: 'PID check', templateJson: { dcql: { query } }, signerOption: 'X509_P256', ...extra });

describe('verification templates', () => {
  it('creates, reads, replaces and deletes a template, keeping combine as saved', async () => {
    const created = await send('POST', base(), template(sdJwtQuery(), { clientIdPrefix: 'x509_san_dns' }));
    expect(created.statusCode).toBe(201);
    const data = created.json().data;
    expect(data).toMatchObject({ name: 'PID check', signerOption: 'X509_P256', clientIdPrefix: 'x509_san_dns', templateJson: { dcql: { query: sdJwtQuery() } } });

    expect((await send('GET', `${base()}/${data.id}`)).json().data).toEqual(data);
    const replaced = await send('PUT', `${base()}/${data.id}`, template(mdocQuery(), { name: 'mDL', signerOption: 'DID' }));
    expect(replaced.statusCode).toBe(200);
    expect(replaced.json().data).toMatchObject({ id: data.id, name: 'mDL', signerOption: 'DID', templateJson: { dcql: { query: mdocQuery() } } });
    expect(replaced.json().data.clientIdPrefix).toBeUndefined();

    const list = await send('GET', base());
    expect(list.json().data.data.map((t: { id: string }) => t.id)).toContain(data.id);
    expect((await send('DELETE', `${base()}/${data.id}`)).statusCode).toBe(200);
    expect((await send('GET', `${base()}/${data.id}`)).json()).toMatchObject({ statusCode: 404, code: 'VERIFICATION_TEMPLATE_NOT_FOUND' });
  });

  it('answers 400 INVALID_DCQL with a JSON Pointer per problem, on create and replace', async () => {
    const { combine: _c, ...noCombine } = sdJwtQuery();
    const bad = await send('POST', base(), template({ ...noCombine, credentials: [{ id: 'x', format: 'mso_mdoc', claims: [{ path: ['only'] }] }] }));
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toMatchObject({ code: 'INVALID_DCQL' });
    expect(bad.json().details.map((d: { path: string }) => d.path)).toEqual([
      '/templateJson/dcql/query/combine',
      '/templateJson/dcql/query/credentials/0/meta/doctype_value',
      '/templateJson/dcql/query/credentials/0/claims/0/path',
    ]);
    const created = (await send('POST', base(), template())).json().data;
    const replace = await send('PUT', `${base()}/${created.id}`, template({ ...sdJwtQuery(), combine: 'any' }));
    expect(replace.json()).toMatchObject({ statusCode: 400, code: 'INVALID_DCQL', details: [{ path: '/templateJson/dcql/query/combine' }] });
    expect((await send('GET', `${base()}/${created.id}`)).json().data.templateJson.dcql.query.combine).toBe('all');
  });

  it('refuses malformed bodies (schema) with VALIDATION_FAILED', async () => {
    for (const payload of [{}, template(sdJwtQuery(), { signerOption: 'RSA' }), template(sdJwtQuery(), { clientIdPrefix: 'x509_san_uri' }), { ...template(), name: '' }, { ...template(), templateJson: { query: sdJwtQuery() } }]) {
      const response = await send('POST', base('org-bad'), payload, 'org-bad');
      expect(response.statusCode, JSON.stringify(payload)).toBe(400);
      expect(response.json().code).toBe('VALIDATION_FAILED');
    }
    expect((await send('GET', base('org-bad'), undefined, 'org-bad')).json().data.totalItems).toBe(0);
  });

  it('isolates organisations and treats a malformed id as not found', async () => {
    const created = (await send('POST', base(), template())).json().data;
    for (const method of ['GET', 'PUT', 'DELETE']) {
      const response = await send(method, `${base(OTHER_ORG)}/${created.id}`, method === 'PUT' ? template() : undefined, OTHER_ORG);
      expect(response.statusCode).toBe(404);
    }
    expect((await send('GET', `${base()}/not-a-uuid`)).statusCode).toBe(404);
    expect((await send('GET', `${base()}/${created.id}`)).json().data.name).toBe('PID check');
  });
});
