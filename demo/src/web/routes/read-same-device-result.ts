import { PageError, sendJson } from '../json-http.js';
import type { PageRoute } from '../page-context.js';

/**
 * `GET /api/same-device-result?responseCode=`: the page the wallet redirects to after
 * a same-device presentation. The session is this browser's last same-device one
 * (from its cookie, never from the URL) and the verifier answers only when the
 * `response_code` is the one its redirect carried: 403 `RESPONSE_CODE_MISMATCH`
 * otherwise, the session-fixation defence of OpenID4VP 1.0 §8.2.
 */
export const readSameDeviceResult: PageRoute = async (context, { response, url, browserId }) => {
  const responseCode = url.searchParams.get('responseCode');
  if (!responseCode || responseCode.length > 200)
    throw new PageError(400, 'VALIDATION_FAILED', 'responseCode is required (at most 200 characters)');
  const sessionId = context.browsers.latestSameDeviceOf(browserId);
  if (!sessionId)
    throw new PageError(
      404,
      'SESSION_NOT_FOUND',
      'this browser started no same-device presentation: open the result in the browser that showed the request',
    );
  const answer = await context.verifier.readResult(sessionId, responseCode);
  sendJson(response, answer.status, answer.body);
};
