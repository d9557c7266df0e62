import { randomUUID } from 'node:crypto';
import { Type } from 'typebox';
import {
  ErrorCode,
  PagingQuerySchema,
  VerificationTemplateBodySchema,
  VerificationTemplateSchema,
  type ClientIdPrefix,
  type SignerOption,
  type VerificationTemplate,
  type VerificationTemplateBody,
} from '@tessera/contracts';
import { badRequest, conflict, envelope, isUuid, notFound, pageWindow, toPage, type App } from '@tessera/service-kit';
import type { VerifierContext } from '../context.js';
import type { TemplateRow } from '../db/schema.js';
import { countOpenSessionsOfTemplate, deleteTemplateRow, findTemplate, insertTemplate, listTemplates, updateTemplate, type TemplateValues } from '../db/templates.js';
import { validateDcqlQuery } from '../domain/dcql.js';
import { envelopeOf, errorResponses, OrgParamsSchema, pageEnvelopeOf } from './common.js';

const TemplateParamsSchema = Type.Object({ ...OrgParamsSchema.properties, templateId: Type.String({ minLength: 1, maxLength: 200 }) });
const tags = ['verification templates'];

export function toTemplate(row: TemplateRow): VerificationTemplate {
  return {
    id: row.id,
    name: row.name,
    templateJson: row.templateJson,
    signerOption: row.signerOption as SignerOption,
    ...(row.clientIdPrefix ? { clientIdPrefix: row.clientIdPrefix as ClientIdPrefix } : {}),
    createDateTime: row.createdAt.toISOString(),
    lastChangedDateTime: row.updatedAt.toISOString(),
  };
}

/** 400 INVALID_DCQL naming each problem; otherwise the values to store (the query as given, `combine` kept). */
function templateValues(body: VerificationTemplateBody): TemplateValues {
  const problems = validateDcqlQuery({ query: body.templateJson.dcql.query, pointer: '/templateJson/dcql/query' });
  if (problems.length > 0) throw badRequest('The DCQL query is invalid: see details.', problems, ErrorCode.INVALID_DCQL);
  return { name: body.name, templateJson: body.templateJson as TemplateValues['templateJson'], signerOption: body.signerOption, clientIdPrefix: body.clientIdPrefix ?? null };
}

function templateNotFound() {
  return notFound('The organisation has no such verification template.', ErrorCode.VERIFICATION_TEMPLATE_NOT_FOUND);
}

export function registerTemplateRoutes(app: App, ctx: VerifierContext): void {
  app.post(
    '/verification-template',
    { schema: { tags, summary: 'Create a verification template', params: OrgParamsSchema, body: VerificationTemplateBodySchema, response: { 201: envelopeOf(VerificationTemplateSchema), ...errorResponses(400) } } },
    async (request, reply) => {
      const values = templateValues(request.body);
      const row = await insertTemplate(ctx.db, { ...values, id: randomUUID(), orgId: request.params.orgId, now: ctx.now() });
      return reply.code(201).send(envelope(201, 'Verification template created.', toTemplate(row)));
    },
  );

  app.get(
    '/verification-template',
    { schema: { tags, summary: 'List verification templates', params: OrgParamsSchema, querystring: PagingQuerySchema, response: { 200: pageEnvelopeOf(VerificationTemplateSchema), ...errorResponses(400) } } },
    async (request) => {
      const window = pageWindow(request.query);
      const { rows, total } = await listTemplates(ctx.db, { orgId: request.params.orgId, limit: window.pageSize, offset: window.offset });
      return envelope(200, 'Verification templates.', toPage(rows.map(toTemplate), total, window));
    },
  );

  app.get(
    '/verification-template/:templateId',
    { schema: { tags, summary: 'Get a verification template', params: TemplateParamsSchema, response: { 200: envelopeOf(VerificationTemplateSchema), ...errorResponses(404) } } },
    async (request) => {
      const { orgId, templateId } = request.params;
      const row = isUuid(templateId) ? await findTemplate(ctx.db, { orgId, id: templateId }) : undefined;
      if (!row) throw templateNotFound();
      return envelope(200, 'Verification template.', toTemplate(row));
    },
  );

  app.put(
    '/verification-template/:templateId',
    { schema: { tags, summary: 'Replace a verification template', params: TemplateParamsSchema, body: VerificationTemplateBodySchema, response: { 200: envelopeOf(VerificationTemplateSchema), ...errorResponses(400, 404) } } },
    async (request) => {
      const { orgId, templateId } = request.params;
      if (!isUuid(templateId)) throw templateNotFound();
      const row = await updateTemplate(ctx.db, { ...templateValues(request.body), orgId, id: templateId, now: ctx.now() });
      if (!row) throw templateNotFound();
      return envelope(200, 'Verification template updated.', toTemplate(row));
    },
  );

  app.delete(
    '/verification-template/:templateId',
    { schema: { tags, summary: 'Delete a verification template', params: TemplateParamsSchema, response: { 200: envelopeOf(VerificationTemplateSchema), ...errorResponses(404, 409) } } },
    async (request) => {
      const { orgId, templateId } = request.params;
      if (!isUuid(templateId)) throw templateNotFound();
      const deleted = await ctx.db.transaction(async (tx) => {
        const row = await findTemplate(tx, { orgId, id: templateId, lock: 'update' });
        if (!row) throw templateNotFound();
        if ((await countOpenSessionsOfTemplate(tx, { templateId, now: ctx.now() })) > 0) {
          throw conflict(ErrorCode.TEMPLATE_IN_USE, 'Open presentation sessions use this template; delete it after they are answered or expired.');
        }
        await deleteTemplateRow(tx, { orgId, id: templateId });
        return row;
      });
      return envelope(200, 'Verification template deleted.', toTemplate(deleted));
    },
  );
}
