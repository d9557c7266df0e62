import { Type } from 'typebox';
import {
  CreatedPresentationSchema,
  CreateIntentPresentationBodySchema,
  CreatePresentationBodySchema,
} from '@tessera/contracts';
import { type App, envelope, envelopeOf, routeSchema } from '@tessera/service-kit';
import { toCreatedPresentation } from '../presenters/presentation-session.js';
import {
  createIntentBasedSession,
  type CreateIntentBasedSessionDeps,
} from '../use-cases/create-intent-based-session.js';
import {
  createPresentationSession,
  type CreatePresentationSessionDeps,
} from '../use-cases/create-presentation-session.js';
import { MANAGEMENT, OrgParamsSchema } from './common.js';

const tags = ['presentations'];
const DirectQuerySchema = Type.Object({ verifierId: Type.String({ minLength: 1, maxLength: 200 }) });
const IntentQuerySchema = Type.Object({
  verifierId: Type.String({ minLength: 1, maxLength: 200 }),
  ecosystemId: Type.String({ format: 'uuid' }),
});

/** What both create routes say of the Digital Credentials API protocols (OpenAPI). */
const DC_API_PROTOCOLS_DESCRIPTION =
  'dc_api and dc_api.jwt: dcApiProtocols (optional, default ["openid4vp-v1-signed"]) lists the Digital Credentials API protocols to offer, in order of preference, each once; the 201 answer carries dcApiRequests, one { protocol, data } per protocol in that order (what a page passes as navigator.credentials.get({ digital: { requests } })), and dcApiRequest, the openid4vp-v1-signed entry when offered, else the first. dcApiProtocols with a redirect mode is 400 VALIDATION_FAILED. org-iso-mdoc (ISO/IEC 18013-7 Annex C) needs a query of mso_mdoc credentials a DeviceRequest can express (no credential_sets alternatives, claim_sets, values or multiple) and exactly one expected origin, else 400 DC_API_PROTOCOL_NOT_SUPPORTED with the path of the part.';

/** Both create-session use cases need the same deps, the intent-based one the NATS timeout besides. */
export type PresentationRouteDeps = CreateIntentBasedSessionDeps & CreatePresentationSessionDeps;

export function registerPresentationRoutes(app: App, deps: PresentationRouteDeps): void {
  app.post(
    '/presentation',
    {
      schema: routeSchema(
        {
          summary: 'Create a presentation request from a DCQL query',
          description: DC_API_PROTOCOLS_DESCRIPTION,
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
          description: DC_API_PROTOCOLS_DESCRIPTION,
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
