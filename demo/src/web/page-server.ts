import type { IncomingMessage, ServerResponse } from 'node:http';
import { PageError, sendError, sendJson } from './json-http.js';
import type { PageContext, PageRoute } from './page-context.js';
import { answerWithDemoWallet } from './routes/answer-with-demo-wallet.js';
import { createPresentation } from './routes/create-presentation.js';
import { followPresentationEvents } from './routes/follow-presentation-events.js';
import { forwardDcApiResponse } from './routes/forward-dc-api-response.js';
import { presentationQrCode } from './routes/presentation-qr-code.js';
import { readPresentationResult } from './routes/read-presentation-result.js';
import { readSameDeviceResult } from './routes/read-same-device-result.js';
import { readDemoCredentialStatus, setDemoCredentialStatus } from './routes/demo-credential-status.js';
import { serveStaticFile } from './static-files.js';

const SESSION = '(?<id>[0-9a-f-]{36})';
const ROUTES: Array<{ method: string; path: RegExp; route: PageRoute }> = [
  { method: 'POST', path: /^\/api\/presentations$/, route: createPresentation },
  { method: 'GET', path: new RegExp(`^/api/presentations/${SESSION}/qr\\.svg$`), route: presentationQrCode },
  { method: 'GET', path: new RegExp(`^/api/presentations/${SESSION}/events$`), route: followPresentationEvents },
  { method: 'GET', path: new RegExp(`^/api/presentations/${SESSION}/result$`), route: readPresentationResult },
  { method: 'POST', path: new RegExp(`^/api/presentations/${SESSION}/dc-api-response$`), route: forwardDcApiResponse },
  { method: 'POST', path: new RegExp(`^/api/presentations/${SESSION}/demo-wallet$`), route: answerWithDemoWallet },
  { method: 'GET', path: /^\/api\/same-device-result$/, route: readSameDeviceResult },
  { method: 'GET', path: /^\/api\/demo-credential\/status$/, route: readDemoCredentialStatus },
  { method: 'PUT', path: /^\/api\/demo-credential\/status$/, route: setDemoCredentialStatus },
];

/**
 * The relying party's backend: the page's files and its small JSON API. Every
 * response carries the browser's cookie (set on first contact); errors answer the
 * platform error body; an unexpected failure is logged and answered 502, since it is
 * almost always the verifier being unreachable.
 */
export function handlePageRequests(
  context: PageContext,
  log: (line: string) => void = (line) => process.stderr.write(`${line}\n`),
) {
  return (request: IncomingMessage, response: ServerResponse): void => {
    void serve(context, request, response).catch((error: unknown) => {
      if (error instanceof PageError) return sendError(response, error);
      // The path only: a query string may carry a response_code, which is a bearer secret for a result.
      const path = (request.url ?? '/').split('?')[0];
      log(`demo web: ${request.method} ${path} failed: ${error instanceof Error ? error.message : String(error)}`);
      if (!response.headersSent)
        sendError(
          response,
          new PageError(502, 'VERIFIER_UNAVAILABLE', 'the verifier could not be reached or answered unexpectedly'),
        );
      else response.end();
    });
  };
}

async function serve(context: PageContext, request: IncomingMessage, response: ServerResponse): Promise<void> {
  const url = new URL(request.url ?? '/', 'http://page.invalid');
  const { browserId, setCookie } = context.browsers.identify(request);
  if (setCookie) response.setHeader('set-cookie', setCookie);

  const matches = ROUTES.map((entry) => ({ entry, match: entry.path.exec(url.pathname) })).filter((m) => m.match);
  const found = matches.find((m) => m.entry.method === request.method);
  if (found)
    return found.entry.route(context, { request, response, url, params: { ...found.match!.groups }, browserId });
  if (matches.length > 0) throw new PageError(405, 'METHOD_NOT_ALLOWED', `${request.method} is not allowed here`);
  if (request.method === 'GET' && (await serveStaticFile(url.pathname, response))) return;
  sendJson(response, 404, {
    statusCode: 404,
    error: 'Not Found',
    code: 'NOT_FOUND',
    message: `${url.pathname} is not a page or API of this demo`,
  });
}
