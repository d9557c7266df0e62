import { PageError, readJsonBody, sendJson } from '../json-http.js';
import type { PageRoute } from '../page-context.js';
import { requirePageOrigin } from '../page-origin.js';
import { DC_API_PROTOCOLS, type DcApiProtocol } from '../verifier-api.js';

/**
 * `POST /api/presentations/{id}/dc-api-response` `{ response, protocol, origin }`: the
 * `data` and `protocol` of the credential the browser's `navigator.credentials.get`
 * returned and the page's `location.origin`, forwarded to the verifier's
 * `verify-authorization-response` (which reads the answer by its protocol).
 * The origin must be the one the request came from: the verifier then checks it
 * against the session's `expectedOrigins` and the wallet's signed audience.
 */
export const forwardDcApiResponse: PageRoute = async (context, { request, response, params, browserId }) => {
  const pageOrigin = requirePageOrigin(context, request);
  if (!context.browsers.ownedBy(params.id!, browserId))
    throw new PageError(404, 'SESSION_NOT_FOUND', 'no such presentation in this browser');
  const body = await readJsonBody(request);
  if (typeof body.response !== 'object' || body.response === null || Array.isArray(body.response)) {
    throw new PageError(
      400,
      'VALIDATION_FAILED',
      "response must be the object the browser's DigitalCredential.data holds",
    );
  }
  const protocol = DC_API_PROTOCOLS.find((known) => known === body.protocol) as DcApiProtocol | undefined;
  if (!protocol)
    throw new PageError(
      400,
      'VALIDATION_FAILED',
      `protocol must be the DigitalCredential's protocol, one of ${DC_API_PROTOCOLS.join(', ')}`,
    );
  if (body.origin !== pageOrigin)
    throw new PageError(
      400,
      'VALIDATION_FAILED',
      'origin must be the location.origin of the page that made the request',
    );
  const answer = await context.verifier.verifyDcApiResponse({
    sessionId: params.id!,
    authorizationResponse: body.response as Record<string, unknown>,
    origin: pageOrigin,
    protocol,
  });
  sendJson(response, answer.status, answer.body);
};
