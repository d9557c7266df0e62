import { Type } from 'typebox';
import {
  CreatedPresentationSchema,
  CreateIntentPresentationBodySchema,
  CreatePresentationBodySchema,
} from '@tessera/contracts';
import { envelope, routeSchema, type App } from '@tessera/service-kit';
import { toCreatedPresentation } from '../presenters/presentation-session.js';
import {
  createIntentBasedSession,
  type CreateIntentBasedSessionDeps,
} from '../use-cases/create-intent-based-session.js';
import { createPresentationSession } from '../use-cases/create-presentation-session.js';
import { envelopeOf, MANAGEMENT, OrgParamsSchema } from './common.js';

const tags = ['presentations'];
const DirectQuerySchema = Type.Object({ verifierId: Type.String({ minLength: 1, maxLength: 200 }) });
const IntentQuerySchema = Type.Object({
  verifierId: Type.String({ minLength: 1, maxLength: 200 }),
  ecosystemId: Type.String({ format: 'uuid' }),
});

/** Both create-session use cases need the same deps, the intent-based one the NATS timeout besides. */
export type PresentationRouteDeps = CreateIntentBasedSessionDeps;

export function registerPresentationRoutes(app: App, deps: PresentationRouteDeps): void {
  app.post(
    '/presentation',
    {
      schema: routeSchema(
        {
          summary: 'Create a presentation request from a DCQL query',
          tags,
          security: MANAGEMENT,
          errors: [403, 404, 409, 503],
        },
        {
          params: OrgParamsSchema,
          querystring: DirectQuerySchema,
          body: CreatePresentationBodySchema,
          response: { 201: envelopeOf(CreatedPresentationSchema) },
        },
      ),
    },
    async (request, reply) => {
      const created = await createPresentationSession(deps, {
        orgId: request.params.orgId,
        verifierId: request.query.verifierId,
        body: request.body,
        requestId: request.id,
      });
      return reply.code(201).send(envelope(201, 'Presentation request created.', toCreatedPresentation(created)));
    },
  );

  app.post(
    '/intent-based-verification-presentation',
    {
      schema: routeSchema(
        {
          summary: 'Create a presentation request from an ecosystem intent',
          tags,
          security: MANAGEMENT,
          errors: [403, 404, 409, 503],
        },
        {
          params: OrgParamsSchema,
          querystring: IntentQuerySchema,
          body: CreateIntentPresentationBodySchema,
          response: { 201: envelopeOf(CreatedPresentationSchema) },
        },
      ),
    },
    async (request, reply) => {
      const created = await createIntentBasedSession(deps, {
        orgId: request.params.orgId,
        ...request.query,
        body: request.body,
        requestId: request.id,
      });
      return reply.code(201).send(envelope(201, 'Presentation request created.', toCreatedPresentation(created)));
    },
  );
}
