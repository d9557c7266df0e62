import { PageError, sendJson } from '../json-http.js';
import type { PageRoute } from '../page-context.js';

/**
 * `GET /api/presentations/{id}/result`: what the verified session proved (the
 * verifier's answer, passed on). Not for same-device sessions: their result belongs
 * to the browser the wallet redirects, read with its `response_code`
 * (read-same-device-result.ts), or a session fixed on a victim would still show the
 * attacker's page the victim's claims.
 */
export const readPresentationResult: PageRoute = async (context, { response, params, browserId }) => {
  const session = context.browsers.ownedBy(params.id!, browserId);
  if (!session) throw new PageError(404, 'SESSION_NOT_FOUND', 'no such presentation in this browser');
  if (session.sameDevice)
    throw new PageError(
      409,
      'RESPONSE_CODE_REQUIRED',
      'a same-device presentation is read on the page the wallet returns to, with its response_code',
    );
  const answer = await context.verifier.readResult(params.id!);
  sendJson(response, answer.status, answer.body);
};
