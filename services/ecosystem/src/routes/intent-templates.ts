import { Type } from 'typebox';
import { ErrorCode, IntentTemplateCreateBodySchema, IntentTemplateSchema, IntentTemplateUpdateBodySchema, type TemplateRole } from '@tessera/contracts';
import { badRequest, envelope, notFound, principalOf, type App } from '@tessera/service-kit';
import type { FastifyRequest } from 'fastify';
import { authoriseIntent } from '../access.js';
import { createIntentTemplate, deleteIntentTemplate, findIntentTemplate, listIntentTemplates, updateIntentTemplate } from '../db/intent-templates.js';
import { isActiveParticipant } from '../db/standing.js';
import type { IntentRow } from '../db/schema.js';
import { isUuid } from '../domain/ids.js';
import { presentIntentTemplate } from '../present.js';
import { checkVerificationTemplate } from '../verification-templates.js';
import type { RouteDeps } from './route-deps.js';
import { Envelope, PathId } from './schemas.js';

const TemplateParams = Type.Object({ intentId: PathId, intentTemplateId: PathId });
const templateNotFound = () => notFound('No such intent template.', ErrorCode.INTENT_TEMPLATE_NOT_FOUND);

/** Which credential templates an intent uses, per role, ecosystem-wide or overridden per organisation. */
export function registerIntentTemplateRoutes(app: App, deps: RouteDeps): void {
  /** A verifier-role template must exist at the verifier and belong to the lead or an active member. */
  const checkTemplate = async (request: FastifyRequest, intent: IntentRow, role: TemplateRole, templateId: string) => {
    if (role !== 'verifier') return;
    await checkVerificationTemplate({
      bus: deps.bus,
      templateId,
      requestId: request.id,
      isParticipant: (orgId) => isActiveParticipant(deps.db, intent.ecosystemId, orgId),
    });
  };

  app.post(
    '/v1/intent/:intentId/template',
    {
      schema: {
        tags: ['intent templates'],
        security: [{ bearer: [] }],
        params: Type.Object({ intentId: PathId }),
        body: IntentTemplateCreateBodySchema,
        response: { 201: Envelope(IntentTemplateSchema) },
      },
    },
    async (request, reply) => {
      const principal = principalOf(request);
      const { intent } = await authoriseIntent(deps.db, principal, request.params.intentId, ['lead']);
      const { templateId, role, description, orgId } = request.body;
      if (orgId && !(await isActiveParticipant(deps.db, intent.ecosystemId, orgId))) {
        throw badRequest('An override must name the lead or an active member of the ecosystem.', [
          { path: '/orgId', message: `organisation ${orgId} is neither the lead nor an active member of this ecosystem` },
        ]);
      }
      await checkTemplate(request, intent, role, templateId);
      const created = await createIntentTemplate(deps.db, { intentId: intent.id, templateId, role, description: description ?? null, orgId: orgId ?? null, userId: principal.sub });
      return reply.code(201).send(envelope(201, 'Intent template created.', presentIntentTemplate(created)));
    },
  );

  app.get(
    '/v1/intent/:intentId/template',
    {
      schema: {
        tags: ['intent templates'],
        security: [{ bearer: [] }],
        params: Type.Object({ intentId: PathId }),
        response: { 200: Envelope(Type.Array(IntentTemplateSchema)) },
      },
    },
    async (request) => {
      const { intent } = await authoriseIntent(deps.db, principalOf(request), request.params.intentId, ['lead', 'member']);
      return envelope(200, 'Intent templates.', (await listIntentTemplates(deps.db, intent.id)).map(presentIntentTemplate));
    },
  );

  app.put(
    '/v1/intent/:intentId/template/:intentTemplateId',
    {
      schema: {
        tags: ['intent templates'],
        security: [{ bearer: [] }],
        params: TemplateParams,
        body: IntentTemplateUpdateBodySchema,
        response: { 200: Envelope(IntentTemplateSchema) },
      },
    },
    async (request) => {
      const principal = principalOf(request);
      const { intent } = await authoriseIntent(deps.db, principal, request.params.intentId, ['lead']);
      const id = request.params.intentTemplateId;
      const existing = isUuid(id) ? await findIntentTemplate(deps.db, intent.id, id) : undefined;
      if (!existing) throw templateNotFound();
      if (existing.role !== request.body.role) await checkTemplate(request, intent, request.body.role, existing.templateId);
      const updated = await updateIntentTemplate(deps.db, { intentId: intent.id, id, role: request.body.role, description: request.body.description, userId: principal.sub });
      if (!updated) throw templateNotFound();
      return envelope(200, 'Intent template updated.', presentIntentTemplate(updated));
    },
  );

  app.delete(
    '/v1/intent/:intentId/template/:intentTemplateId',
    { schema: { tags: ['intent templates'], security: [{ bearer: [] }], params: TemplateParams, response: { 200: Envelope(IntentTemplateSchema) } } },
    async (request) => {
      const { intent } = await authoriseIntent(deps.db, principalOf(request), request.params.intentId, ['lead']);
      const id = request.params.intentTemplateId;
      const deleted = isUuid(id) ? await deleteIntentTemplate(deps.db, intent.id, id) : undefined;
      if (!deleted) throw templateNotFound();
      return envelope(200, 'Intent template deleted.', presentIntentTemplate(deleted));
    },
  );
}
