import {
  AuthorizationResponseOutcomeSchema,
  PresentationResponseQuerySchema,
  PresentationResponseSchema,
  VerifyAuthorizationResponseBodySchema,
} from '@tessera/contracts';
import { type App, envelope, envelopeOf, principalOf, routeSchema } from '@tessera/service-kit';
import { toAuthorizationResponseOutcome, toPresentationResponse } from '../presenters/presentation-response.js';
import { readPresentationResponse } from '../use-cases/read-presentation-response.js';
import { verifyDcApiResponse, type VerifyDcApiResponseDeps } from '../use-cases/verify-dc-api-response.js';
import { MANAGEMENT, OrgParamsSchema, setRetryAfter } from './common.js';

const tags = ['presentations'];

export function registerPresentationResponseRoutes(app: App, deps: VerifyDcApiResponseDeps): void {
  app.get(
    '/verifier-presentation-response',
    {
      schema: routeSchema(
        {
          summary: 'What a verified session proved (409 unless ResponseVerified; 410 once its data is deleted)',
          description:
            'responseCode (optional): the response_code the wallet’s redirect carried; a wrong one is 403 RESPONSE_CODE_MISMATCH, with no presentation data. The first read starts PRESENTATION_READ_GRACE_SECONDS, after which claims not declared intent_to_retain: true are deleted; all claims are deleted PRESENTATION_DATA_TTL_SECONDS (or the session’s presentationDataTtlSeconds) after verification: 410 PRESENTATION_DATA_EXPIRED. A presentation whose credential names a status list has status { uri, idx, status: VALID, format }: format is the form of the Status List Token checked, jwt (application/statuslist+jwt) or cwt (application/statuslist+cwt); results verified before both forms were read have no format.',
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
          description:
            'protocol (optional): what the browser’s DigitalCredential.protocol said, default the session’s first dcApiProtocols entry; one the session did not offer is 400 DC_API_PROTOCOL_MISMATCH. OpenID4VP protocols: authorizationResponse is { vp_token }, { response: <JWE> } (dc_api.jwt), the id_token alias or { error }. org-iso-mdoc: { response: <base64url EncryptedResponse> } or { error }; one that does not open for the session’s EncryptionInfo and this origin is 400 DECRYPTION_FAILED. Refusals (400 ORIGIN_NOT_ALLOWED, DC_API_PROTOCOL_MISMATCH, DECRYPTION_FAILED, RESPONSE_NOT_ENCRYPTED, VALIDATION_FAILED) leave the session unchanged; a verification failure is a 200 with state Error.',
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
      const { verificationSessionId, authorizationResponse, origin, protocol } = request.body;
      const settled = await verifyDcApiResponse(deps, {
        orgId: request.params.orgId,
        verificationSessionId,
        authorizationResponse: authorizationResponse as Record<string, unknown>,
        origin,
        ...(protocol ? { protocol } : {}),
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
