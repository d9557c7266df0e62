import { PageError, readJsonBody, sendJson } from '../json-http.js';
import type { PageRoute } from '../page-context.js';
import { requirePageOrigin } from '../page-origin.js';
import { DC_API_PROTOCOLS, type RequestKind, type VerifierAnswer } from '../verifier-api.js';
import type { PageContext } from '../page-context.js';

/** How the wallet is reached: a QR code for a phone, a link on this device, or the browser's own wallet (DC API). */
export type Flow = 'cross-device' | 'same-device' | 'dc-api';
const FLOWS: readonly Flow[] = ['cross-device', 'same-device', 'dc-api'];
const KINDS: readonly RequestKind[] = ['intent', 'direct', 'direct-mdl'];

/**
 * `POST /api/presentations` `{ request: 'intent' | 'direct', flow }`: starts a session
 * at the verifier. Same-device sessions return to this page (`redirectUri`, then the
 * `response_code` check); DC API sessions are `dc_api.jwt` for this page's origin only,
 * asked with every protocol the query allows (`askWithEveryProtocol`).
 */
export const createPresentation: PageRoute = async (context, { request, response, browserId }) => {
  const origin = requirePageOrigin(context, request);
  const body = await readJsonBody(request);
  const kind = KINDS.find((k) => k === body.request);
  const flow = FLOWS.find((f) => f === body.flow);
  if (!kind) throw new PageError(400, 'VALIDATION_FAILED', `request must be one of ${KINDS.join(', ')}`);
  if (!flow) throw new PageError(400, 'VALIDATION_FAILED', `flow must be one of ${FLOWS.join(', ')}`);

  const answer =
    flow === 'dc-api'
      ? await askWithEveryProtocol(context, kind, origin)
      : await context.verifier.createPresentation({
          kind,
          responseMode: 'direct_post',
          ...(flow === 'same-device' ? { redirectUri: `${origin}/` } : {}),
        });
  if (answer.status !== 201 && answer.status !== 200) return sendJson(response, answer.status, answer.body);

  const session = answer.body.data;
  context.browsers.remember(session.id, {
    browserId,
    authorizationRequestUri: session.authorizationRequestUri,
    sameDevice: flow === 'same-device',
  });
  sendJson(response, 201, {
    statusCode: 201,
    message: 'Presentation started',
    data: {
      id: session.id,
      flow,
      state: session.state,
      expiresAt: session.expiresAt,
      ...(session.authorizationRequestUri
        ? {
            authorizationRequestUri: session.authorizationRequestUri,
            qrCodeUrl: `/api/presentations/${session.id}/qr.svg`,
          }
        : {}),
      ...(session.dcApiRequests ? { dcApiRequests: session.dcApiRequests } : {}),
      ...(session.notice ? { notice: session.notice } : {}),
    },
  });
};

/**
 * A DC API session for this page's origin offering every protocol, in the page's order;
 * when the verifier answers that the query cannot be asked with `org-iso-mdoc` (an
 * SD-JWT VC query, or one a DeviceRequest cannot express), the OpenID4VP protocols alone.
 */
async function askWithEveryProtocol(context: PageContext, kind: RequestKind, origin: string): Promise<VerifierAnswer> {
  const ask = (dcApiProtocols: readonly (typeof DC_API_PROTOCOLS)[number][]) =>
    context.verifier.createPresentation({
      kind,
      responseMode: 'dc_api.jwt',
      expectedOrigins: [origin],
      dcApiProtocols,
    });
  const answer = await ask(DC_API_PROTOCOLS);
  if (answer.status === 400 && answer.body?.code === 'DC_API_PROTOCOL_NOT_SUPPORTED')
    return ask(DC_API_PROTOCOLS.filter((protocol) => protocol !== 'org-iso-mdoc'));
  return answer;
}
