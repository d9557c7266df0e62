import type { FastifyReply, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import { ClientIdPrefixSchema, SignerOptionSchema } from '@tessera/contracts';
import type { App } from '@tessera/service-kit';
import { DcqlProblems, RequestPreview } from '../presenters/components/dcql-check.js';
import { TemplateEditorPage } from '../presenters/pages/template-editor-page.js';
import { TemplatesPage } from '../presenters/pages/templates-page.js';
import { renderFragment } from '../presenters/render-document.js';
import { checkTemplateDraft, type CheckTemplateDraftDeps } from '../use-cases/check-template-draft.js';
import { deleteTemplate, type DeleteTemplateDeps } from '../use-cases/delete-template.js';
import { loadTemplateEditor, type LoadTemplateEditorDeps } from '../use-cases/load-template-editor.js';
import { loadTemplates, type LoadTemplatesDeps } from '../use-cases/load-templates.js';
import { saveTemplate, type SaveTemplateDeps } from '../use-cases/save-template.js';
import { answerPage } from './page-errors.js';
import { registerOrgListPage } from './org-list-page.js';
import { answerForm, formValues, OrgParams, orgPath, pageSchema, requireSignIn, sessionOf } from './web-session.js';

export type TemplateRouteDeps = LoadTemplatesDeps &
  LoadTemplateEditorDeps &
  SaveTemplateDeps &
  DeleteTemplateDeps &
  CheckTemplateDraftDeps;

const TemplateParams = Type.Object({
  ...OrgParams.properties,
  templateId: Type.String({ minLength: 1, maxLength: 100 }),
});
const TemplateForm = Type.Object({
  name: Type.String({ maxLength: 500 }),
  signerOption: SignerOptionSchema,
  clientIdPrefix: Type.Optional(Type.Union([ClientIdPrefixSchema, Type.Literal('')])),
  query: Type.String({ maxLength: 65536 }),
  verifierId: Type.Optional(Type.String({ maxLength: 200 })),
  previewVerifierId: Type.Optional(Type.String({ maxLength: 200 })),
});
const templatePath = (orgId: string, templateId?: string) =>
  orgPath(orgId, templateId ? `/templates/${encodeURIComponent(templateId)}` : '/templates/new');

/** Verification templates: the list, the DCQL editor with its live check and preview, saving and deleting. */
export function registerTemplateRoutes(app: App, deps: TemplateRouteDeps): void {
  registerOrgListPage(
    app,
    'templates',
    (input) => loadTemplates(deps, input),
    ({ context, orgId, value }) => TemplatesPage({ context, orgId, templates: value }),
  );

  const showEditor = (templateId?: string) =>
    async function editorPage(
      request: FastifyRequest & { params: { orgId: string; templateId?: string } },
      reply: FastifyReply,
    ) {
      const { orgId } = request.params;
      const editor = await loadTemplateEditor(deps, {
        token: sessionOf(request).accessToken,
        orgId,
        ...((templateId ?? request.params.templateId) ? { templateId: templateId ?? request.params.templateId } : {}),
      });
      return answerPage(request, reply, editor, { area: 'organisation', orgId, item: 'templates' }, (value, context) =>
        TemplateEditorPage({
          context,
          orgId,
          editor: value,
        }),
      );
    };
  app.get(
    '/orgs/:orgId/templates/new',
    { schema: pageSchema({ params: OrgParams }), preHandler: requireSignIn },
    showEditor(),
  );
  app.get(
    '/orgs/:orgId/templates/:templateId',
    { schema: pageSchema({ params: TemplateParams }), preHandler: requireSignIn },
    showEditor(),
  );

  app.post(
    '/orgs/:orgId/templates/check',
    {
      schema: pageSchema({
        params: OrgParams,
        body: Type.Object({
          query: Type.String({ maxLength: 65536 }),
          verifierId: Type.Optional(Type.String({ maxLength: 200 })),
        }),
      }),
      preHandler: requireSignIn,
    },
    async (request, reply) => {
      const { orgId } = request.params;
      const check = await checkTemplateDraft(deps, {
        token: sessionOf(request).accessToken,
        orgId,
        queryText: request.body.query,
        ...(request.body.verifierId ? { verifierId: request.body.verifierId } : {}),
      });
      return reply.header('cache-control', 'no-store').send({
        problems: check.problems.length,
        problemsHtml: renderFragment(DcqlProblems({ problems: check.problems })),
        previewHtml: renderFragment(
          RequestPreview({ requested: check.requested, walletQuery: check.walletQuery, verifier: check.verifier }),
        ),
      });
    },
  );

  const save = (existing: boolean) =>
    async function saveForm(
      request: FastifyRequest & {
        params: { orgId: string; templateId?: string };
        body: {
          name: string;
          signerOption: 'DID' | 'X509_P256' | 'X509_ED25519';
          clientIdPrefix?: '' | 'x509_hash' | 'x509_san_dns';
          query: string;
          verifierId?: string;
        };
      },
      reply: FastifyReply,
    ) {
      const { orgId, templateId } = request.params;
      const { name, signerOption, clientIdPrefix, query, verifierId } = request.body;
      const result = await saveTemplate(deps, {
        token: sessionOf(request).accessToken,
        orgId,
        ...(existing && templateId ? { templateId } : {}),
        draft: {
          name,
          signerOption,
          ...(clientIdPrefix ? { clientIdPrefix } : {}),
          ...(verifierId ? { verifierId } : {}),
          queryText: query,
        },
      });
      return answerForm(request, reply, result, {
        back: templatePath(orgId, existing ? templateId : undefined),
        success: (template) =>
          template.overAsking && template.overAsking.length > 0
            ? `The template ${template.name} is saved. Beyond ${template.verifierId ?? 'the verifier'}'s registration, a wallet will flag: ${template.overAsking.map((entry) => entry.message).join(' ')}`
            : `The template ${template.name} is saved.`,
        next: (template) => templatePath(orgId, template.id),
        values: formValues(request.body),
      });
    };
  app.post(
    '/orgs/:orgId/templates',
    { schema: pageSchema({ params: OrgParams, body: TemplateForm }), preHandler: requireSignIn },
    save(false),
  );
  app.post(
    '/orgs/:orgId/templates/:templateId',
    { schema: pageSchema({ params: TemplateParams, body: TemplateForm }), preHandler: requireSignIn },
    save(true),
  );

  app.post(
    '/orgs/:orgId/templates/:templateId/delete',
    { schema: pageSchema({ params: TemplateParams }), preHandler: requireSignIn },
    async (request, reply) => {
      const { orgId, templateId } = request.params;
      const result = await deleteTemplate(deps, { token: sessionOf(request).accessToken, orgId, templateId });
      return answerForm(request, reply, result, {
        back: templatePath(orgId, templateId),
        success: (template) => `The template ${template.name} is deleted.`,
        next: orgPath(orgId, '/templates'),
      });
    },
  );
}
