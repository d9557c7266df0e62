import { Type } from 'typebox';
import { TemplateRoleSchema } from '@tessera/contracts';
import type { App } from '@tessera/service-kit';
import { NOTICE_FIELDS } from '../domain/notice-form.js';
import { IntentPage } from '../presenters/pages/intent-page.js';
import { addIntentTemplate, type AddIntentTemplateDeps } from '../use-cases/add-intent-template.js';
import { deleteIntent, type DeleteIntentDeps } from '../use-cases/delete-intent.js';
import { loadIntent, type LoadIntentDeps } from '../use-cases/load-intent.js';
import { removeIntentTemplate, type RemoveIntentTemplateDeps } from '../use-cases/remove-intent-template.js';
import { saveIntentNotice, type SaveIntentNoticeDeps } from '../use-cases/save-intent-notice.js';
import { updateIntentTemplate, type UpdateIntentTemplateDeps } from '../use-cases/update-intent-template.js';
import { updateIntent, type UpdateIntentDeps } from '../use-cases/update-intent.js';
import { answerPage } from './page-errors.js';
import { answerForm, formValues, pageSchema, requireSignIn, sessionOf } from './web-session.js';

export type IntentRouteDeps = LoadIntentDeps &
  UpdateIntentDeps &
  DeleteIntentDeps &
  AddIntentTemplateDeps &
  UpdateIntentTemplateDeps &
  RemoveIntentTemplateDeps &
  SaveIntentNoticeDeps;

const IntentParams = Type.Object({ intentId: Type.String({ minLength: 1, maxLength: 100 }) });
const MappingParams = Type.Object({
  intentId: Type.String({ minLength: 1, maxLength: 100 }),
  intentTemplateId: Type.String({ minLength: 1, maxLength: 100 }),
});
const intentPath = (intentId: string, rest = '') => `/intents/${encodeURIComponent(intentId)}${rest}`;
const Text = (maxLength: number) => Type.Optional(Type.String({ maxLength }));

/** One intent: its name, templates per role and consent notice. */
export function registerIntentRoutes(app: App, deps: IntentRouteDeps): void {
  app.get(
    '/intents/:intentId',
    {
      schema: pageSchema({
        params: IntentParams,
        querystring: Type.Object({ noticeVersion: Type.Optional(Type.Integer({ minimum: 1, maximum: 2147483647 })) }),
      }),
      preHandler: requireSignIn,
    },
    async (request, reply) => {
      const session = sessionOf(request);
      const view = await loadIntent(deps, {
        token: session.accessToken,
        user: session.user,
        intentId: request.params.intentId,
        ...(request.query.noticeVersion ? { noticeVersion: request.query.noticeVersion } : {}),
      });
      return answerPage(
        request,
        reply,
        view,
        (value) => ({ area: 'ecosystems', ecosystemId: value.intent.ecosystemId }),
        (value, context) =>
          IntentPage({
            context,
            view: value,
          }),
      );
    },
  );

  app.post(
    '/intents/:intentId',
    {
      schema: pageSchema({
        params: IntentParams,
        body: Type.Object({ name: Type.String({ maxLength: 500 }), description: Text(2000) }),
      }),
      preHandler: requireSignIn,
    },
    async (request, reply) => {
      const { intentId } = request.params;
      const result = await updateIntent(deps, {
        token: sessionOf(request).accessToken,
        intentId,
        name: request.body.name,
        description: request.body.description ?? '',
      });
      return answerForm(request, reply, result, {
        back: intentPath(intentId),
        success: (intent) => `The intent ${intent.name} is saved.`,
        values: formValues(request.body),
      });
    },
  );

  app.post(
    '/intents/:intentId/delete',
    { schema: pageSchema({ params: IntentParams }), preHandler: requireSignIn },
    async (request, reply) => {
      const { intentId } = request.params;
      const result = await deleteIntent(deps, { token: sessionOf(request).accessToken, intentId });
      return answerForm(request, reply, result, {
        back: intentPath(intentId),
        success: (intent) => `The intent ${intent.name} is deleted.`,
        next: (intent) => `/ecosystems/${encodeURIComponent(intent.ecosystemId)}`,
      });
    },
  );

  app.post(
    '/intents/:intentId/templates',
    {
      schema: pageSchema({
        params: IntentParams,
        body: Type.Object({
          templateId: Text(200),
          templateIdText: Text(200),
          role: TemplateRoleSchema,
          description: Text(2000),
          orgId: Text(200),
        }),
      }),
      preHandler: requireSignIn,
    },
    async (request, reply) => {
      const { intentId } = request.params;
      const { templateId, templateIdText, role, description, orgId } = request.body;
      const chosen = templateIdText?.trim() || templateId?.trim() || '';
      const result = await addIntentTemplate(deps, {
        token: sessionOf(request).accessToken,
        intentId,
        body: {
          templateId: chosen,
          role,
          ...(description?.trim() ? { description: description.trim() } : {}),
          ...(orgId?.trim() ? { orgId: orgId.trim() } : {}),
        },
      });
      return answerForm(request, reply, result, {
        back: intentPath(intentId),
        success: (mapping) => `Template ${mapping.templateId} is mapped for the ${mapping.role} role.`,
        values: formValues(request.body),
      });
    },
  );

  app.post(
    '/intents/:intentId/templates/:intentTemplateId',
    {
      schema: pageSchema({
        params: MappingParams,
        body: Type.Object({ role: TemplateRoleSchema, description: Text(2000) }),
      }),
      preHandler: requireSignIn,
    },
    async (request, reply) => {
      const { intentId, intentTemplateId } = request.params;
      const result = await updateIntentTemplate(deps, {
        token: sessionOf(request).accessToken,
        intentId,
        intentTemplateId,
        body: { role: request.body.role, description: request.body.description ?? '' },
      });
      return answerForm(request, reply, result, {
        back: intentPath(intentId),
        success: (mapping) => `The mapping of ${mapping.templateId} is saved.`,
      });
    },
  );

  app.post(
    '/intents/:intentId/templates/:intentTemplateId/delete',
    { schema: pageSchema({ params: MappingParams }), preHandler: requireSignIn },
    async (request, reply) => {
      const { intentId, intentTemplateId } = request.params;
      const result = await removeIntentTemplate(deps, {
        token: sessionOf(request).accessToken,
        intentId,
        intentTemplateId,
      });
      return answerForm(request, reply, result, {
        back: intentPath(intentId),
        success: (mapping) => `The mapping of ${mapping.templateId} is removed.`,
      });
    },
  );

  app.post(
    '/intents/:intentId/notice',
    {
      schema: pageSchema({
        params: IntentParams,
        body: Type.Object({
          exists: Type.Optional(Type.String({ maxLength: 5 })),
          ...Object.fromEntries(NOTICE_FIELDS.map((name) => [name, Text(10000)])),
        }),
      }),
      preHandler: requireSignIn,
    },
    async (request, reply) => {
      const { intentId } = request.params;
      const form = request.body as Record<string, string | undefined>;
      const result = await saveIntentNotice(deps, {
        token: sessionOf(request).accessToken,
        intentId,
        form,
        exists: form.exists === 'true',
      });
      return answerForm(request, reply, result, {
        back: `${intentPath(intentId)}#notice`,
        success: (notice) => `Notice version ${notice.version} is issued.`,
        values: formValues(request.body),
      });
    },
  );
}
