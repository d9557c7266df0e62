import {
  AuthorizationResponseOutcomeSchema,
  PresentationResponseQuerySchema,
  PresentationResponseSchema,
  VerifyAuthorizationResponseBodySchema,
} from '@tessera/contracts';
import { envelope, principalOf, routeSchema, type App } from '@tessera/service-kit';
import { toAuthorizationResponseOutcome, toPresentationResponse } from '../presenters/presentation-response.js';
import { readPresentationResponse } from '../use-cases/read-presentation-response.js';
import type { PresentationAnswerDeps } from '../use-cases/steps/presentation-answer-deps.js';
import { verifyDcApiResponse } from '../use-cases/verify-dc-api-response.js';
import { envelopeOf, MANAGEMENT, OrgParamsSchema, setRetryAfter } from './common.js';

const tags = ['presentations'];

export function registerPresentationResponseRoutes(app: App, deps: PresentationAnswerDeps): void {
  app.get(
    '/verifier-presentation-response',
    {
      schema: routeSchema(
        {
          summary: 'What a verified session proved (409 unless ResponseVerified; 410 once its data is deleted)',
          description:
            'responseCode (optional): the response_code the wallet’s redirect carried; a wrong one is 403 RESPONSE_CODE_MISMATCH, with no presentation data. The first read starts PRESENTATION_READ_GRACE_SECONDS, after which claims not declared intent_to_retain: true are deleted; all claims are deleted PRESENTATION_DATA_TTL_SECONDS (or the session’s presentationDataTtlSeconds) after verification: 410 PRESENTATION_DATA_EXPIRED.',
          tags,
          security: MANAGEMENT,
          errors: [404, 409, 410],
        },
        {
          params: OrgParamsSchema,
          querystring: PresentationResponseQuerySchema,
          response: { 200: envelopeOf(PresentationResponseSchema) },
        },
      ),
    },
    async (request) => {
      const { verificationPresentationId, responseCode } = request.query;
      const read = await readPresentationResponse(deps, {
        orgId: request.params.orgId,
        sessionId: verificationPresentationId,
        subject: principalOf(request).sub,
        ...(responseCode !== undefined ? { responseCode } : {}),
      });
      return envelope(200, 'Verified presentation.', toPresentationResponse(read.session, read.result));
    },
  );

  app.post(
    '/verify-authorization-response',
    {
      onError: setRetryAfter,
      schema: routeSchema(
        {
          summary: 'Verify the authorization response a browser received over the Digital Credentials API',
          tags,
          security: MANAGEMENT,
          errors: [404, 409, 429, 503],
        },
        {
          params: OrgParamsSchema,
          body: VerifyAuthorizationResponseBodySchema,
          response: { 200: envelopeOf(AuthorizationResponseOutcomeSchema) },
        },
      ),
    },
    async (request) => {
      const { verificationSessionId, authorizationResponse, origin } = request.body;
      const settled = await verifyDcApiResponse(deps, {
        orgId: request.params.orgId,
        verificationSessionId,
        authorizationResponse: authorizationResponse as Record<string, unknown>,
        origin,
        subject: principalOf(request).sub,
        requestId: request.id,
      });
      return envelope(
        200,
        settled.state === 'ResponseVerified' ? 'The presentation was verified.' : 'The presentation was not accepted.',
        toAuthorizationResponseOutcome(settled),
      );
    },
  );
}
