import { PageError, readJsonBody, sendJson } from '../json-http.js';
import type { PageRoute } from '../page-context.js';
import { requirePageOrigin } from '../page-origin.js';

/** `GET /api/demo-credential/status` (demo only): `{ revoked }`, for the page's checkbox. */
export const readDemoCredentialStatus: PageRoute = async (context, { response }) => {
  if (!context.demoWallet) throw new PageError(404, 'NOT_FOUND', 'this page runs without the demo wallet');
  sendJson(response, 200, {
    statusCode: 200,
    message: 'Demo credential status',
    data: { revoked: context.demoWallet.revoked },
  });
};

/** `PUT /api/demo-credential/status` `{ revoked }` (demo only): the demo issuer revokes or reinstates the demo wallet's credential. */
export const setDemoCredentialStatus: PageRoute = async (context, { request, response }) => {
  requirePageOrigin(context, request);
  if (!context.demoWallet) throw new PageError(404, 'NOT_FOUND', 'this page runs without the demo wallet');
  const body = await readJsonBody(request);
  if (typeof body.revoked !== 'boolean') throw new PageError(400, 'VALIDATION_FAILED', 'revoked must be true or false');
  await context.demoWallet.setRevoked(body.revoked);
  sendJson(response, 200, {
    statusCode: 200,
    message: body.revoked ? 'Credential revoked' : 'Credential reinstated',
    data: { revoked: body.revoked },
  });
};
