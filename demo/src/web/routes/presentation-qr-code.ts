import { PageError } from '../json-http.js';
import type { PageRoute } from '../page-context.js';
import { renderQrSvg } from '../qr-code.js';

/** `GET /api/presentations/{id}/qr.svg`: the session's request URI as a QR code, for this browser's sessions only. */
export const presentationQrCode: PageRoute = async (context, { response, params, browserId }) => {
  const session = context.browsers.ownedBy(params.id!, browserId);
  if (!session?.authorizationRequestUri)
    throw new PageError(404, 'SESSION_NOT_FOUND', 'no such presentation in this browser, or it has no QR code');
  const svg = await renderQrSvg(session.authorizationRequestUri);
  response.writeHead(200, {
    'content-type': 'image/svg+xml',
    'cache-control': 'private, max-age=600',
    'content-length': Buffer.byteLength(svg),
  });
  response.end(svg);
};
