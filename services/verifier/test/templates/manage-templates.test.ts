import { describe, expect } from 'vitest';
import { mdocQuery, sdJwtQuery } from '../support/dcql-queries.js';
import { verifierTest as test } from '../support/fixtures.js';
import { ORG, OTHER_ORG } from '../support/management.js';

const base = (org = ORG) => `/v1/orgs/${org}/oid4vp/verification-template`;
const template = (query: unknown = sdJwtQuery(), extra: Record<string, unknown> = {}) => ({
  name: 'PID check',
  templateJson: { dcql: { query } },
  signerOption: 'X509_P256',
  ...extra,
});

describe('verification templates', () => {
  test('creates, reads, replaces and deletes a template, keeping combine as saved', async ({ api }) => {
    const created = await api('POST', base(), template(sdJwtQuery(), { clientIdPrefix: 'x509_san_dns' }));
    expect(created.status).toBe(201);
    const data = created.body.data;
    expect(data).toMatchObject({
      name: 'PID check',
      signerOption: 'X509_P256',
      clientIdPrefix: 'x509_san_dns',
      templateJson: { dcql: { query: sdJwtQuery() } },
    });

    expect((await api('GET', `${base()}/${data.id}`)).body.data).toEqual(data);
    const replaced = await api(
      'PUT',
      `${base()}/${data.id}`,
      template(mdocQuery(), { name: 'mDL', signerOption: 'DID' }),
    );
    expect(replaced.status).toBe(200);
    expect(replaced.body.data).toMatchObject({
      id: data.id,
      name: 'mDL',
      signerOption: 'DID',
      templateJson: { dcql: { query: mdocQuery() } },
    });
    expect(replaced.body.data.clientIdPrefix).toBeUndefined();

    const list = await api('GET', base());
    expect(list.body.data.data.map((t: { id: string }) => t.id)).toContain(data.id);
    expect((await api('DELETE', `${base()}/${data.id}`)).status).toBe(200);
    expect((await api('GET', `${base()}/${data.id}`)).body).toMatchObject({
      statusCode: 404,
      code: 'VERIFICATION_TEMPLATE_NOT_FOUND',
    });
  });

  test('answers 400 INVALID_DCQL to trusted_authorities of type openid_federation, and accepts aki', async ({
    api,
  }) => {
    const query = sdJwtQuery();
    (query.credentials[0] as Record<string, unknown>).trusted_authorities = [
      { type: 'openid_federation', values: ['https://federation.example'] },
    ];
    const refused = await api('POST', base(), template(query));
    expect(refused.body).toMatchObject({
      statusCode: 400,
      code: 'INVALID_DCQL',
      details: [{ path: '/templateJson/dcql/query/credentials/0/trusted_authorities/0/type' }],
    });
    expect(refused.body.details[0].message).toContain('"openid_federation" is not supported');
    (query.credentials[0] as Record<string, unknown>).trusted_authorities = [
      { type: 'aki', values: ['s9tIpPmhxdiuNkHMEWNpYim8S8Y'] },
    ];
    expect((await api('POST', base(), template(query))).status).toBe(201);
  });

  test('answers 400 INVALID_DCQL with a JSON Pointer per problem, on create and replace', async ({ api }) => {
    const { combine: _c, ...noCombine } = sdJwtQuery();
    const bad = await api(
      'POST',
      base(),
      template({ ...noCombine, credentials: [{ id: 'x', format: 'mso_mdoc', claims: [{ path: ['only'] }] }] }),
    );
    expect(bad.status).toBe(400);
    expect(bad.body).toMatchObject({ code: 'INVALID_DCQL' });
    expect(bad.body.details.map((d: { path: string }) => d.path)).toEqual([
      '/templateJson/dcql/query/combine',
      '/templateJson/dcql/query/credentials/0/meta/doctype_value',
      '/templateJson/dcql/query/credentials/0/claims/0/path',
    ]);
    const created = (await api('POST', base(), template())).body.data;
    const replace = await api('PUT', `${base()}/${created.id}`, template({ ...sdJwtQuery(), combine: 'any' }));
    expect(replace.body).toMatchObject({
      statusCode: 400,
      code: 'INVALID_DCQL',
      details: [{ path: '/templateJson/dcql/query/combine' }],
    });
    expect((await api('GET', `${base()}/${created.id}`)).body.data.templateJson.dcql.query.combine).toBe('all');
  });

  test('refuses malformed bodies (schema) with VALIDATION_FAILED', async ({ api }) => {
    const org = 'org-bad';
    for (const payload of [
      {},
      template(sdJwtQuery(), { signerOption: 'RSA' }),
      template(sdJwtQuery(), { clientIdPrefix: 'x509_san_uri' }),
      { ...template(), name: '' },
      { ...template(), templateJson: { query: sdJwtQuery() } },
    ]) {
      const response = await api('POST', base(org), payload, { org });
      expect(response.status, JSON.stringify(payload)).toBe(400);
      expect(response.body.code).toBe('VALIDATION_FAILED');
    }
    expect((await api('GET', base(org), undefined, { org })).body.data.totalItems).toBe(0);
  });

  test('isolates organisations and treats a malformed id as not found', async ({ api }) => {
    const created = (await api('POST', base(), template())).body.data;
    for (const method of ['GET', 'PUT', 'DELETE'] as const) {
      const response = await api(
        method,
        `${base(OTHER_ORG)}/${created.id}`,
        method === 'PUT' ? template() : undefined,
        { org: OTHER_ORG },
      );
      expect(response.status).toBe(404);
    }
    expect((await api('GET', `${base()}/not-a-uuid`)).status).toBe(404);
    expect((await api('GET', `${base()}/${created.id}`)).body.data.name).toBe('PID check');
  });
});
