import { describe, expect } from 'vitest';
import type { VerificationTemplateBody } from '@tessera/contracts';
import { pageWindow } from '@tessera/service-kit';
import { createVerificationTemplate } from '../../src/use-cases/create-verification-template.js';
import { deleteVerificationTemplate } from '../../src/use-cases/delete-verification-template.js';
import { getVerificationTemplateSummary } from '../../src/use-cases/get-verification-template-summary.js';
import { getVerificationTemplate } from '../../src/use-cases/get-verification-template.js';
import { listVerificationTemplates } from '../../src/use-cases/list-verification-templates.js';
import { updateVerificationTemplate } from '../../src/use-cases/update-verification-template.js';
import { mdocQuery, sdJwtQuery } from '../support/dcql-queries.js';
import { useCaseTest as test } from '../support/use-cases.js';

// Verification templates (VERIFIER.md, Verification templates): a named DCQL query
// with its signer, kept as saved, checked on create and replace.
const ORG = 'org-template-cases';
const firstPage = pageWindow({ pageNumber: 1, pageSize: 10 });

const body = (query: unknown, extra: Partial<VerificationTemplateBody> = {}): VerificationTemplateBody => ({
  name: 'PID check',
  templateJson: { dcql: { query } } as VerificationTemplateBody['templateJson'],
  signerOption: 'X509_P256',
  ...extra,
});

describe('verification template use cases', () => {
  test('a template is created, read, listed, replaced and deleted, its query kept as saved (combine included)', async ({
    world,
  }) => {
    const { deps } = world;
    const created = await createVerificationTemplate(deps, {
      orgId: ORG,
      body: body(sdJwtQuery(), { clientIdPrefix: 'x509_san_dns' }),
    });
    expect(created).toMatchObject({
      orgId: ORG,
      name: 'PID check',
      signerOption: 'X509_P256',
      clientIdPrefix: 'x509_san_dns',
      templateJson: { dcql: { query: sdJwtQuery() } },
    });
    expect(await getVerificationTemplate(deps, { orgId: ORG, templateId: created.id })).toEqual(created);
    expect((await listVerificationTemplates(deps, { orgId: ORG, page: firstPage })).rows.map((row) => row.id)).toEqual([
      created.id,
    ]);

    const replaced = await updateVerificationTemplate(deps, {
      orgId: ORG,
      templateId: created.id,
      body: body(mdocQuery(), { name: 'mDL', signerOption: 'DID' }),
    });
    // A replacement is whole: the prefix it does not name is gone.
    expect(replaced).toMatchObject({ id: created.id, name: 'mDL', signerOption: 'DID', clientIdPrefix: null });
    expect(replaced.templateJson).toEqual({ dcql: { query: mdocQuery() } });

    expect(await deleteVerificationTemplate(deps, { orgId: ORG, templateId: created.id })).toMatchObject({
      id: created.id,
    });
    await expect(getVerificationTemplate(deps, { orgId: ORG, templateId: created.id })).rejects.toMatchObject({
      statusCode: 404,
      code: 'VERIFICATION_TEMPLATE_NOT_FOUND',
    });
  });

  test('a query the service cannot ask is refused with INVALID_DCQL naming each problem, on create and replace', async ({
    world,
  }) => {
    const invalid = { credentials: [{ id: 'pid', format: 'dc+sd-jwt' }], combine: 'sometimes' };
    await expect(createVerificationTemplate(world.deps, { orgId: ORG, body: body(invalid) })).rejects.toMatchObject({
      statusCode: 400,
      code: 'INVALID_DCQL',
      details: [
        { path: '/templateJson/dcql/query/combine' },
        { path: '/templateJson/dcql/query/credentials/0/meta/vct_values' },
      ],
    });
    const kept = await createVerificationTemplate(world.deps, { orgId: ORG, body: body(sdJwtQuery()) });
    await expect(
      updateVerificationTemplate(world.deps, { orgId: ORG, templateId: kept.id, body: body(invalid) }),
    ).rejects.toMatchObject({ statusCode: 400, code: 'INVALID_DCQL' });
    expect((await getVerificationTemplate(world.deps, { orgId: ORG, templateId: kept.id })).templateJson).toEqual({
      dcql: { query: sdJwtQuery() },
    });
  });

  test("another organisation's template reads as missing; the ecosystem's summary finds any organisation's", async ({
    world,
  }) => {
    const { deps } = world;
    const created = await createVerificationTemplate(deps, { orgId: ORG, body: body(sdJwtQuery()) });
    const others = { orgId: 'org-someone-else', templateId: created.id };
    await expect(getVerificationTemplate(deps, others)).rejects.toMatchObject({ statusCode: 404 });
    await expect(updateVerificationTemplate(deps, { ...others, body: body(sdJwtQuery()) })).rejects.toMatchObject({
      statusCode: 404,
    });
    await expect(deleteVerificationTemplate(deps, others)).rejects.toMatchObject({ statusCode: 404 });
    expect(await getVerificationTemplateSummary(deps, { templateId: created.id })).toMatchObject({
      id: created.id,
      orgId: ORG,
    });
    for (const templateId of ['not-a-uuid', '00000000-0000-4000-8000-000000000000'])
      await expect(getVerificationTemplateSummary(deps, { templateId })).rejects.toMatchObject({
        statusCode: 404,
        code: 'VERIFICATION_TEMPLATE_NOT_FOUND',
      });
  });
});
