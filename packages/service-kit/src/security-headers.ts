import type { IncomingMessage, ServerResponse } from 'node:http';
import helmet, { type HelmetOptions } from 'helmet';

/**
 * The security headers helmet would set, computed once: helmet runs here against a
 * recording response, and every reply then gets the same headers in one call. This
 * keeps helmet as the source of the header values while avoiding its per-request
 * work (which cost about a third of the throughput of a small route).
 */
export function computeSecurityHeaders(options: Readonly<HelmetOptions>): Record<string, string> {
  const headers: Record<string, string> = {};
  const recorder = {
    setHeader(name: string, value: string | number | readonly string[]) {
      headers[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : String(value);
      return recorder;
    },
    removeHeader(name: string) {
      delete headers[name.toLowerCase()];
    },
    getHeader(name: string) {
      return headers[name.toLowerCase()];
    },
    locals: {},
  };
  let finished = false;
  helmet(options)({ headers: {} } as IncomingMessage, recorder as unknown as ServerResponse, (error?: unknown) => {
    if (error) throw error;
    finished = true;
  });
  // Every helmet middleware is synchronous for static options; anything else is a bug here.
  if (!finished) throw new Error('helmet did not finish synchronously');
  return headers;
}
