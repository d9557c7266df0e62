import { PageError, sendJson } from '../json-http.js';
import type { PageRoute } from '../page-context.js';
import { requirePageOrigin } from '../page-origin.js';

/**
 * `POST /api/presentations/{id}/demo-wallet` (demo only): the bundled demo wallet
 * scans this session's request and answers it, as a phone would. Answers what the
 * verifier told the wallet: `{}`, or `{ redirect_uri }` for a same-device session,
 * which the page then follows as the wallet app would.
 */
export const answerWithDemoWallet: PageRoute = async (context, { request, response, params, browserId }) => {
  requirePageOrigin(context, request);
  if (!context.demoWallet) throw new PageError(404, 'NOT_FOUND', 'this page runs without the demo wallet');
  const session = context.browsers.ownedBy(params.id!, browserId);
  if (!session?.authorizationRequestUri)
    throw new PageError(
      404,
      'SESSION_NOT_FOUND',
      'no such presentation in this browser, or it is not answered by a request URI',
    );
  const answer = await context.demoWallet.answerRequest(session.authorizationRequestUri);
  sendJson(response, 200, {
    statusCode: 200,
    message: 'The demo wallet answered',
    data: { verifierStatus: answer.status, verifierAnswer: answer.body },
  });
};
