import { randomUUID } from 'node:crypto';
import { Type } from 'typebox';
import { CreateVerifierBodySchema, ErrorCode, PagingQuerySchema, UpdateVerifierBodySchema, VerifierSchema, type Verifier } from '@tessera/contracts';
import { conflict, envelope, notFound, pageWindow, toPage, uniqueViolation, type App } from '@tessera/service-kit';
import type { VerifierContext } from '../context.js';
import type { VerifierRow } from '../db/schema.js';
import { countOpenSessionsOfVerifier, deleteVerifierRow, findVerifier, insertVerifier, listVerifiers, updateVerifierMetadata } from '../db/verifiers.js';
import { envelopeOf, errorResponses, OrgParamsSchema, pageEnvelopeOf } from './common.js';

const VerifierParamsSchema = Type.Object({ ...OrgParamsSchema.properties, verifierId: Type.String({ minLength: 1, maxLength: 200 }) });
const tags = ['verifiers'];

export function toVerifier(row: VerifierRow): Verifier {
  return {
    id: row.id,
    verifierId: row.verifierId,
    ...(row.clientMetadata ? { clientMetadata: row.clientMetadata } : {}),
    createDateTime: row.createdAt.toISOString(),
    lastChangedDateTime: row.updatedAt.toISOString(),
  };
}

function verifierNotFound(verifierId: string) {
  return notFound(`The organisation has no verifier "${verifierId}".`, ErrorCode.VERIFIER_NOT_FOUND);
}

export function registerVerifierRoutes(app: App, ctx: VerifierContext): void {
  app.post(
    '/verifier',
    { schema: { tags, summary: 'Create a verifier', params: OrgParamsSchema, body: CreateVerifierBodySchema, response: { 201: envelopeOf(VerifierSchema), ...errorResponses(400, 409) } } },
    async (request, reply) => {
      const { orgId } = request.params;
      try {
        const row = await insertVerifier(ctx.db, { id: randomUUID(), orgId, verifierId: request.body.verifierId, clientMetadata: request.body.clientMetadata ?? null, now: ctx.now() });
        return reply.code(201).send(envelope(201, 'Verifier created.', toVerifier(row)));
      } catch (error) {
        if (uniqueViolation(error) !== undefined) throw conflict(ErrorCode.VERIFIER_EXISTS, `The organisation already has a verifier "${request.body.verifierId}".`);
        throw error;
      }
    },
  );

  app.get(
    '/verifier',
    { schema: { tags, summary: 'List verifiers', params: OrgParamsSchema, querystring: PagingQuerySchema, response: { 200: pageEnvelopeOf(VerifierSchema), ...errorResponses(400) } } },
    async (request) => {
      const window = pageWindow(request.query);
      const { rows, total } = await listVerifiers(ctx.db, { orgId: request.params.orgId, limit: window.pageSize, offset: window.offset });
      return envelope(200, 'Verifiers.', toPage(rows.map(toVerifier), total, window));
    },
  );

  app.get(
    '/verifier/:verifierId',
    { schema: { tags, summary: 'Get a verifier', params: VerifierParamsSchema, response: { 200: envelopeOf(VerifierSchema), ...errorResponses(404) } } },
    async (request) => {
      const row = await findVerifier(ctx.db, request.params);
      if (!row) throw verifierNotFound(request.params.verifierId);
      return envelope(200, 'Verifier.', toVerifier(row));
    },
  );

  app.put(
    '/verifier/:verifierId',
    { schema: { tags, summary: 'Update a verifier', params: VerifierParamsSchema, body: UpdateVerifierBodySchema, response: { 200: envelopeOf(VerifierSchema), ...errorResponses(400, 404) } } },
    async (request) => {
      const row = await updateVerifierMetadata(ctx.db, { ...request.params, clientMetadata: request.body.clientMetadata ?? null, now: ctx.now() });
      if (!row) throw verifierNotFound(request.params.verifierId);
      return envelope(200, 'Verifier updated.', toVerifier(row));
    },
  );

  app.delete(
    '/verifier/:verifierId',
    { schema: { tags, summary: 'Delete a verifier', params: VerifierParamsSchema, response: { 200: envelopeOf(VerifierSchema), ...errorResponses(404, 409) } } },
    async (request) => {
      const { orgId, verifierId } = request.params;
      const deleted = await ctx.db.transaction(async (tx) => {
        // FOR UPDATE: waits for session inserts holding FOR SHARE, so no session is created for a deleted verifier.
        const row = await findVerifier(tx, { orgId, verifierId, lock: 'update' });
        if (!row) throw verifierNotFound(verifierId);
        if ((await countOpenSessionsOfVerifier(tx, { orgId, verifierRef: row.id, now: ctx.now() })) > 0) {
          throw conflict(ErrorCode.VERIFIER_IN_USE, `Verifier "${verifierId}" has open presentation sessions; delete it after they are answered or expired.`);
        }
        await deleteVerifierRow(tx, { orgId, id: row.id });
        return row;
      });
      return envelope(200, 'Verifier deleted.', toVerifier(deleted));
    },
  );
}
