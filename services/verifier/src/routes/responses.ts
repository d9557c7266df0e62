import {
  AuthorizationResponseOutcomeSchema,
  ErrorCode,
  PresentationResponseQuerySchema,
  PresentationResponseSchema,
  VerifyAuthorizationResponseBodySchema,
} from '@tessera/contracts';
import { AppError, envelope, isUuid, notFound, type App } from '@tessera/service-kit';
import type { VerifierContext } from '../context.js';
import { findPresentationResult } from '../db/session-outcomes.js';
import { findSession } from '../db/sessions.js';
import { effectiveSessionState } from '../domain/session-state.js';
import { toPresentationResponse } from '../responses/settle-session.js';
import { verifyDcApiResponse } from '../responses/verify-dc-api-response.js';
import { envelopeOf, errorResponses, OrgParamsSchema } from './common.js';

const tags = ['presentations'];

export function registerResponseRoutes(app: App, ctx: VerifierContext): void {
  app.get(
    '/verifier-presentation-response',
    {
      schema: {
        tags,
        summary: 'What a verified session proved (409 unless ResponseVerified)',
        params: OrgParamsSchema,
        querystring: PresentationResponseQuerySchema,
        response: { 200: envelopeOf(PresentationResponseSchema), ...errorResponses(400, 404, 409) },
      },
    },
    async (request) => {
      const { orgId } = request.params;
      const id = request.query.verificationPresentationId;
      const session = isUuid(id) ? await findSession(ctx.db, { orgId, id }) : undefined;
      if (!session) throw notFound('The organisation has no presentation session with this id.', ErrorCode.NOT_FOUND);
      const { state } = effectiveSessionState(session, ctx.now());
      const result = state === 'ResponseVerified' ? await findPresentationResult(ctx.db, { orgId, sessionId: id }) : undefined;
      if (!result) throw new AppError(409, ErrorCode.PRESENTATION_NOT_VERIFIED, `The session is ${state}: presentation data exists only once it is ResponseVerified.`);
      return envelope(200, 'Verified presentation.', toPresentationResponse(session, result));
    },
  );

  app.post(
    '/verify-authorization-response',
    {
      schema: {
        tags,
        summary: 'Verify the authorization response a browser received over the Digital Credentials API',
        params: OrgParamsSchema,
        body: VerifyAuthorizationResponseBodySchema,
        response: { 200: envelopeOf(AuthorizationResponseOutcomeSchema), ...errorResponses(400, 404, 409) },
      },
    },
    async (request) => {
      const { verificationSessionId, authorizationResponse, origin } = request.body;
      const outcome = await verifyDcApiResponse(ctx, { orgId: request.params.orgId, verificationSessionId, authorizationResponse: authorizationResponse as Record<string, unknown>, origin, requestId: request.id });
      return envelope(200, outcome.state === 'ResponseVerified' ? 'The presentation was verified.' : 'The presentation was not accepted.', outcome);
    },
  );
}
