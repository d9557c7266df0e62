import type { IncomingMessage } from 'node:http';
import { PageError } from './json-http.js';
import type { PageContext } from './page-context.js';

/**
 * The origin of the page that sent this request, from the browser's `Origin` header,
 * which must be one the page is served from: what a session's `expectedOrigins` and
 * `redirectUri` are made of, and a check that a state-changing call comes from the
 * page itself (another site's script cannot set `Origin`).
 */
export function requirePageOrigin(context: PageContext, request: IncomingMessage): string {
  const origin = request.headers.origin;
  if (typeof origin !== 'string' || !context.allowedOrigins.includes(origin)) {
    throw new PageError(
      403,
      'ORIGIN_NOT_ALLOWED',
      `requests must come from the page (${context.allowedOrigins.join(', ')})`,
    );
  }
  return origin;
}
