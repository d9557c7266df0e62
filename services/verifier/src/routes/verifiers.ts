import { Type } from 'typebox';
import {
  CreateVerifierBodySchema,
  PagingQuerySchema,
  PatchVerifierBodySchema,
  UpdateVerifierBodySchema,
  VerifierSchema,
} from '@tessera/contracts';
import { type App, envelope, envelopeOf, pageEnvelopeOf, pageWindow, routeSchema, toPage } from '@tessera/service-kit';
import { toVerifier } from '../presenters/verifier.js';
import { createVerifier, type CreateVerifierDeps } from '../use-cases/create-verifier.js';
import { deleteVerifier, type DeleteVerifierDeps } from '../use-cases/delete-verifier.js';
import { getVerifier } from '../use-cases/get-verifier.js';
import { listVerifiers } from '../use-cases/list-verifiers.js';
import { updateVerifier, type UpdateVerifierDeps } from '../use-cases/update-verifier.js';
import { MANAGEMENT, OrgParamsSchema } from './common.js';

const VerifierParamsSchema = Type.Object({
  ...OrgParamsSchema.properties,
  verifierId: Type.String({ minLength: 1, maxLength: 200 }),
});
const tags = ['verifiers'];

export type VerifierRouteDeps = CreateVerifierDeps & UpdateVerifierDeps & DeleteVerifierDeps;

export function registerVerifierRoutes(app: App, deps: VerifierRouteDeps): void {
  app.post(
    '/verifier',
    {
      schema: routeSchema(
        { summary: 'Create a verifier', tags, security: MANAGEMENT, errors: [409] },
        { params: OrgParamsSchema, body: CreateVerifierBodySchema, response: { 201: envelopeOf(VerifierSchema) } },
      ),
    },
    async (request, reply) => {
      const row = await createVerifier(deps, { orgId: request.params.orgId, ...request.body });
      return reply.code(201).send(envelope(201, 'Verifier created.', toVerifier(row)));
    },
  );

  app.get(
    '/verifier',
    {
      schema: routeSchema(
        { summary: 'List verifiers', tags, security: MANAGEMENT },
        { params: OrgParamsSchema, querystring: PagingQuerySchema, response: { 200: pageEnvelopeOf(VerifierSchema) } },
      ),
    },
    async (request) => {
      const page = pageWindow(request.query);
      const { rows, total } = await listVerifiers(deps, { orgId: request.params.orgId, page });
      return envelope(200, 'Verifiers.', toPage(rows.map(toVerifier), total, page));
    },
  );

  app.get(
    '/verifier/:verifierId',
    {
      schema: routeSchema(
        { summary: 'Get a verifier', tags, security: MANAGEMENT, errors: [404] },
        { params: VerifierParamsSchema, response: { 200: envelopeOf(VerifierSchema) } },
      ),
    },
    async (request) => envelope(200, 'Verifier.', toVerifier(await getVerifier(deps, request.params))),
  );

  app.put(
    '/verifier/:verifierId',
    {
      schema: routeSchema(
        {
          summary: 'Update a verifier',
          description:
            'Replaces clientMetadata (absent clears it); overAskingPolicy and strictHaip change only when given. A verifierId in the body must equal the path’s (400 VERIFIER_ID_IMMUTABLE otherwise).',
          tags,
          security: MANAGEMENT,
          errors: [404],
        },
        { params: VerifierParamsSchema, body: UpdateVerifierBodySchema, response: { 200: envelopeOf(VerifierSchema) } },
      ),
    },
    async (request) => {
      const { verifierId: bodyVerifierId, clientMetadata, overAskingPolicy, strictHaip } = request.body;
      const row = await updateVerifier(deps, {
        ...request.params,
        ...(bodyVerifierId !== undefined ? { bodyVerifierId } : {}),
        clientMetadata: clientMetadata ?? null,
        ...(overAskingPolicy !== undefined ? { overAskingPolicy } : {}),
        ...(strictHaip !== undefined ? { strictHaip } : {}),
      });
      return envelope(200, 'Verifier updated.', toVerifier(row));
    },
  );

  app.patch(
    '/verifier/:verifierId',
    {
      schema: routeSchema(
        {
          summary: 'Change some settings of a verifier',
          description:
            'Only the fields sent change: clientMetadata replaces the display data as a whole (not merged member by member), null removes it; overAskingPolicy and strictHaip as given. At least one field. A verifierId in the body must equal the path’s (400 VERIFIER_ID_IMMUTABLE otherwise).',
          tags,
          security: MANAGEMENT,
          errors: [404],
        },
        { params: VerifierParamsSchema, body: PatchVerifierBodySchema, response: { 200: envelopeOf(VerifierSchema) } },
      ),
    },
    async (request) => {
      const { verifierId: bodyVerifierId, clientMetadata, overAskingPolicy, strictHaip } = request.body;
      const row = await updateVerifier(deps, {
        ...request.params,
        ...(bodyVerifierId !== undefined ? { bodyVerifierId } : {}),
        ...(clientMetadata !== undefined ? { clientMetadata } : {}),
        ...(overAskingPolicy !== undefined ? { overAskingPolicy } : {}),
        ...(strictHaip !== undefined ? { strictHaip } : {}),
      });
      return envelope(200, 'Verifier updated.', toVerifier(row));
    },
  );

  app.delete(
    '/verifier/:verifierId',
    {
      schema: routeSchema(
        { summary: 'Delete a verifier', tags, security: MANAGEMENT, errors: [404, 409] },
        { params: VerifierParamsSchema, response: { 200: envelopeOf(VerifierSchema) } },
      ),
    },
    async (request) => envelope(200, 'Verifier deleted.', toVerifier(await deleteVerifier(deps, request.params))),
  );
}
