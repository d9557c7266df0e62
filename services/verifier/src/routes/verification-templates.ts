import { Type } from 'typebox';
import { PagingQuerySchema, VerificationTemplateBodySchema, VerificationTemplateSchema } from '@tessera/contracts';
import { type App, envelope, envelopeOf, pageEnvelopeOf, pageWindow, routeSchema, toPage } from '@tessera/service-kit';
import { toVerificationTemplate } from '../presenters/verification-template.js';
import {
  createVerificationTemplate,
  type CreateVerificationTemplateDeps,
} from '../use-cases/create-verification-template.js';
import {
  deleteVerificationTemplate,
  type DeleteVerificationTemplateDeps,
} from '../use-cases/delete-verification-template.js';
import { getVerificationTemplate } from '../use-cases/get-verification-template.js';
import { listVerificationTemplates } from '../use-cases/list-verification-templates.js';
import {
  updateVerificationTemplate,
  type UpdateVerificationTemplateDeps,
} from '../use-cases/update-verification-template.js';
import { MANAGEMENT, OrgParamsSchema } from './common.js';

const TemplateParamsSchema = Type.Object({
  ...OrgParamsSchema.properties,
  templateId: Type.String({ minLength: 1, maxLength: 200 }),
});
const tags = ['verification templates'];

export type VerificationTemplateRouteDeps = CreateVerificationTemplateDeps &
  UpdateVerificationTemplateDeps &
  DeleteVerificationTemplateDeps;

export function registerVerificationTemplateRoutes(app: App, deps: VerificationTemplateRouteDeps): void {
  app.post(
    '/verification-template',
    {
      schema: routeSchema(
        { summary: 'Create a verification template', tags, security: MANAGEMENT },
        {
          params: OrgParamsSchema,
          body: VerificationTemplateBodySchema,
          response: { 201: envelopeOf(VerificationTemplateSchema) },
        },
      ),
    },
    async (request, reply) => {
      const row = await createVerificationTemplate(deps, { orgId: request.params.orgId, body: request.body });
      return reply.code(201).send(envelope(201, 'Verification template created.', toVerificationTemplate(row)));
    },
  );

  app.get(
    '/verification-template',
    {
      schema: routeSchema(
        { summary: 'List verification templates', tags, security: MANAGEMENT },
        {
          params: OrgParamsSchema,
          querystring: PagingQuerySchema,
          response: { 200: pageEnvelopeOf(VerificationTemplateSchema) },
        },
      ),
    },
    async (request) => {
      const page = pageWindow(request.query);
      const { rows, total } = await listVerificationTemplates(deps, { orgId: request.params.orgId, page });
      return envelope(200, 'Verification templates.', toPage(rows.map(toVerificationTemplate), total, page));
    },
  );

  app.get(
    '/verification-template/:templateId',
    {
      schema: routeSchema(
        { summary: 'Get a verification template', tags, security: MANAGEMENT, errors: [404] },
        { params: TemplateParamsSchema, response: { 200: envelopeOf(VerificationTemplateSchema) } },
      ),
    },
    async (request) =>
      envelope(
        200,
        'Verification template.',
        toVerificationTemplate(await getVerificationTemplate(deps, request.params)),
      ),
  );

  app.put(
    '/verification-template/:templateId',
    {
      schema: routeSchema(
        { summary: 'Replace a verification template', tags, security: MANAGEMENT, errors: [404] },
        {
          params: TemplateParamsSchema,
          body: VerificationTemplateBodySchema,
          response: { 200: envelopeOf(VerificationTemplateSchema) },
        },
      ),
    },
    async (request) =>
      envelope(
        200,
        'Verification template updated.',
        toVerificationTemplate(await updateVerificationTemplate(deps, { ...request.params, body: request.body })),
      ),
  );

  app.delete(
    '/verification-template/:templateId',
    {
      schema: routeSchema(
        { summary: 'Delete a verification template', tags, security: MANAGEMENT, errors: [404, 409] },
        { params: TemplateParamsSchema, response: { 200: envelopeOf(VerificationTemplateSchema) } },
      ),
    },
    async (request) =>
      envelope(
        200,
        'Verification template deleted.',
        toVerificationTemplate(await deleteVerificationTemplate(deps, request.params)),
      ),
  );
}
