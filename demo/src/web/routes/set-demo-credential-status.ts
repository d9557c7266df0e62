import { PageError, readJsonBody, sendJson } from '../json-http.js';
import type { PageRoute } from '../page-context.js';
import { requirePageOrigin } from '../page-origin.js';

/** `PUT /api/demo-credential/status` `{ revoked }` (demo only): the demo issuer revokes or reinstates the demo wallet's credential. */
export const setDemoCredentialStatus: PageRoute = async (context, { request, response }) => {
  requirePageOrigin(context, request);
  if (!context.demoWallet) throw new PageError(404, 'NOT_FOUND', 'this page runs without the demo wallet');
  const body = await readJsonBody(request);
  if (typeof body.revoked !== 'boolean') throw new PageError(400, 'VALIDATION_FAILED', 'revoked must be true or false');
  await context.demoWallet.setRevoked(body.revoked);
  sendJson(response, 200, { statusCode: 200, message: body.revoked ? 'Credential revoked' : 'Credential reinstated', data: { revoked: body.revoked } });
};
