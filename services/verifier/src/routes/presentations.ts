import { Type } from 'typebox';
import {
  CreatedPresentationSchema,
  CreateIntentPresentationBodySchema,
  CreatePresentationBodySchema,
  ErrorCode,
  intentResolveRpc,
  type ClientIdPrefix,
  type SignerOption,
} from '@tessera/contracts';
import { badRequest, callService, envelope, isUuid, notFound, type App } from '@tessera/service-kit';
import type { VerifierContext } from '../context.js';
import { findTemplateById } from '../db/templates.js';
import { validateDcqlQuery, walletDcqlQuery } from '../domain/dcql.js';
import { checkResponseModeOptions } from '../domain/response-mode.js';
import { createPresentationSession, requireVerifier } from '../sessions/create-session.js';
import { envelopeOf, errorResponses, OrgParamsSchema } from './common.js';

const tags = ['presentations'];
const DirectQuerySchema = Type.Object({ verifierId: Type.String({ minLength: 1, maxLength: 200 }) });
const IntentQuerySchema = Type.Object({ verifierId: Type.String({ minLength: 1, maxLength: 200 }), ecosystemId: Type.String({ format: 'uuid' }) });

export function registerPresentationRoutes(app: App, ctx: VerifierContext): void {
  app.post(
    '/presentation',
    {
      schema: {
        tags,
        summary: 'Create a presentation request from a DCQL query',
        params: OrgParamsSchema,
        querystring: DirectQuerySchema,
        body: CreatePresentationBodySchema,
        response: { 201: envelopeOf(CreatedPresentationSchema), ...errorResponses(400, 404) },
      },
    },
    async (request, reply) => {
      const { dcql, ...options } = request.body;
      const problems = validateDcqlQuery({ query: dcql, pointer: '/dcql' });
      if (problems.length > 0) throw badRequest('The DCQL query is invalid: see details.', problems, ErrorCode.INVALID_DCQL);
      const created = await createPresentationSession(ctx, {
        orgId: request.params.orgId,
        verifierId: request.query.verifierId,
        options,
        dcqlQuery: walletDcqlQuery(dcql as Record<string, unknown>),
        requestId: request.id,
      });
      return reply.code(201).send(envelope(201, 'Presentation request created.', created));
    },
  );

  app.post(
    '/intent-based-verification-presentation',
    {
      schema: {
        tags,
        summary: 'Create a presentation request from an ecosystem intent',
        params: OrgParamsSchema,
        querystring: IntentQuerySchema,
        body: CreateIntentPresentationBodySchema,
        response: { 201: envelopeOf(CreatedPresentationSchema), ...errorResponses(400, 404, 503) },
      },
    },
    async (request, reply) => {
      const { orgId } = request.params;
      const { verifierId, ecosystemId } = request.query;
      const { intent, ...options } = request.body;
      // Cheap local checks first, so a bad request never reaches the ecosystem service.
      checkResponseModeOptions(options);
      await requireVerifier(ctx, orgId, verifierId);
      const resolved = await callService(ctx.bus, intentResolveRpc, { ecosystemId, intent, orgId, role: 'verifier' }, { requestId: request.id, timeoutMs: ctx.config.ECOSYSTEM_TIMEOUT_MS });
      const template = isUuid(resolved.templateId) ? await findTemplateById(ctx.db, { id: resolved.templateId }) : undefined;
      if (!template) throw notFound(`The verification template the intent "${intent}" maps to does not exist.`, ErrorCode.VERIFICATION_TEMPLATE_NOT_FOUND);
      const created = await createPresentationSession(ctx, {
        orgId,
        verifierId,
        options,
        dcqlQuery: walletDcqlQuery(template.templateJson.dcql.query),
        fallbackSigner: { method: template.signerOption as SignerOption, clientIdPrefix: template.clientIdPrefix as ClientIdPrefix | null },
        templateId: template.id,
        intentId: resolved.intentId,
        ecosystemId,
        ...(resolved.notice ? { notice: resolved.notice } : {}),
        requestId: request.id,
      });
      return reply.code(201).send(envelope(201, 'Presentation request created.', created));
    },
  );
}
