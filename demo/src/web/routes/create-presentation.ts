import { PageError, readJsonBody, sendJson } from '../json-http.js';
import type { PageRoute } from '../page-context.js';
import { requirePageOrigin } from '../page-origin.js';
import type { RequestKind } from '../verifier-api.js';

/** How the wallet is reached: a QR code for a phone, a link on this device, or the browser's own wallet (DC API). */
export type Flow = 'cross-device' | 'same-device' | 'dc-api';
const FLOWS: readonly Flow[] = ['cross-device', 'same-device', 'dc-api'];
const KINDS: readonly RequestKind[] = ['intent', 'direct'];

/**
 * `POST /api/presentations` `{ request: 'intent' | 'direct', flow }`: starts a session
 * at the verifier. Same-device sessions return to this page (`redirectUri`, then the
 * `response_code` check); DC API sessions are `dc_api.jwt` for this page's origin only.
 */
export const createPresentation: PageRoute = async (context, { request, response, browserId }) => {
  const origin = requirePageOrigin(context, request);
  const body = await readJsonBody(request);
  const kind = KINDS.find((k) => k === body.request);
  const flow = FLOWS.find((f) => f === body.flow);
  if (!kind) throw new PageError(400, 'VALIDATION_FAILED', `request must be one of ${KINDS.join(', ')}`);
  if (!flow) throw new PageError(400, 'VALIDATION_FAILED', `flow must be one of ${FLOWS.join(', ')}`);

  const answer = await context.verifier.createPresentation({
    kind,
    responseMode: flow === 'dc-api' ? 'dc_api.jwt' : 'direct_post',
    ...(flow === 'same-device' ? { redirectUri: `${origin}/` } : {}),
    ...(flow === 'dc-api' ? { expectedOrigins: [origin] } : {}),
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
      ...(session.dcApiRequest ? { dcApiRequest: session.dcApiRequest } : {}),
      ...(session.notice ? { notice: session.notice } : {}),
    },
  });
};
