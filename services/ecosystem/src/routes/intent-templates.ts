import { Type } from 'typebox';
import {
  IntentTemplateCreateBodySchema,
  IntentTemplateSchema,
  IntentTemplateUpdateBodySchema,
} from '@tessera/contracts';
import { envelope, principalOf, routeSchema, type App, envelopeOf } from '@tessera/service-kit';
import { presentIntentTemplate } from '../presenters/intent-templates.js';
import { createIntentTemplate, type CreateIntentTemplateDeps } from '../use-cases/create-intent-template.js';
import { deleteIntentTemplate, type DeleteIntentTemplateDeps } from '../use-cases/delete-intent-template.js';
import { listIntentTemplates, type ListIntentTemplatesDeps } from '../use-cases/list-intent-templates.js';
import { updateIntentTemplate, type UpdateIntentTemplateDeps } from '../use-cases/update-intent-template.js';
import { PathId } from './schemas.js';

export type IntentTemplateRouteDeps = CreateIntentTemplateDeps &
  ListIntentTemplatesDeps &
  UpdateIntentTemplateDeps &
  DeleteIntentTemplateDeps;

const IntentIdParams = Type.Object({ intentId: PathId });
const TemplateParams = Type.Object({ intentId: PathId, intentTemplateId: PathId });

/** Which credential templates an intent uses, per role, ecosystem-wide or overridden per organisation. */
export function registerIntentTemplateRoutes(app: App, deps: IntentTemplateRouteDeps): void {
  app.post(
    '/v1/intent/:intentId/template',
    {
      schema: routeSchema(
        {
          summary: 'Map a credential template to the intent for a role',
          description:
            'Lead only. Without orgId the mapping is ecosystem-wide; with orgId it overrides for the lead or an active member. A verifier-role template is checked with the verifier (400 VERIFICATION_TEMPLATE_NOT_FOUND or TEMPLATE_OWNER_NOT_MEMBER; 503 when the verifier does not answer in 2 s). One mapping per role and scope (409 INTENT_TEMPLATE_EXISTS).',
          tags: ['intent templates'],
          security: 'bearer',
          errors: [404, 409, 413, 415, 503],
        },
        {
          params: IntentIdParams,
          body: IntentTemplateCreateBodySchema,
          response: { 201: envelopeOf(IntentTemplateSchema) },
        },
      ),
    },
    async (request, reply) => {
      const template = await createIntentTemplate(deps, {
        principal: principalOf(request),
        intentId: request.params.intentId,
        body: request.body,
        requestId: request.id,
      });
      return reply.code(201).send(envelope(201, 'Intent template created.', presentIntentTemplate(template)));
    },
  );

  app.get(
    '/v1/intent/:intentId/template',
    {
      schema: routeSchema(
        {
          summary: "List the intent's templates (a plain array)",
          tags: ['intent templates'],
          security: 'bearer',
          errors: [404, 503],
        },
        { params: IntentIdParams, response: { 200: envelopeOf(Type.Array(IntentTemplateSchema)) } },
      ),
    },
    async (request) => {
      const templates = await listIntentTemplates(deps, {
        principal: principalOf(request),
        intentId: request.params.intentId,
      });
      return envelope(200, 'Intent templates.', templates.map(presentIntentTemplate));
    },
  );

  app.put(
    '/v1/intent/:intentId/template/:intentTemplateId',
    {
      schema: routeSchema(
        {
          summary: "Change an intent template's role and description",
          description:
            'Lead only. templateId and orgId are fixed. A template that becomes verifier-role is checked with the verifier again.',
          tags: ['intent templates'],
          security: 'bearer',
          errors: [404, 409, 413, 415, 503],
        },
        {
          params: TemplateParams,
          body: IntentTemplateUpdateBodySchema,
          response: { 200: envelopeOf(IntentTemplateSchema) },
        },
      ),
    },
    async (request) => {
      const { intentId, intentTemplateId } = request.params;
      const template = await updateIntentTemplate(deps, {
        principal: principalOf(request),
        intentId,
        intentTemplateId,
        body: request.body,
        requestId: request.id,
      });
      return envelope(200, 'Intent template updated.', presentIntentTemplate(template));
    },
  );

  app.delete(
    '/v1/intent/:intentId/template/:intentTemplateId',
    {
      schema: routeSchema(
        { summary: 'Delete an intent template', tags: ['intent templates'], security: 'bearer', errors: [404, 503] },
        { params: TemplateParams, response: { 200: envelopeOf(IntentTemplateSchema) } },
      ),
    },
    async (request) => {
      const { intentId, intentTemplateId } = request.params;
      const template = await deleteIntentTemplate(deps, {
        principal: principalOf(request),
        intentId,
        intentTemplateId,
      });
      return envelope(200, 'Intent template deleted.', presentIntentTemplate(template));
    },
  );
}
