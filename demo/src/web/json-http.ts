import type { IncomingMessage, ServerResponse } from 'node:http';

/** The largest JSON body the page sends: a DC API answer (an encrypted presentation) is a few kilobytes. */
export const MAX_JSON_BODY_BYTES = 256 * 1024;

/** A client error the page shows: the platform error body's shape, so verifier errors pass through unchanged. */
export class PageError extends Error {
  constructor(
    readonly statusCode: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

/** Reads a JSON object body of at most MAX_JSON_BODY_BYTES; anything else is a 400/413 PageError. */
export async function readJsonBody(request: IncomingMessage): Promise<Record<string, unknown>> {
  if (!(request.headers['content-type'] ?? '').startsWith('application/json'))
    throw new PageError(415, 'UNSUPPORTED_MEDIA_TYPE', 'send application/json');
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request) {
    size += (chunk as Buffer).length;
    if (size > MAX_JSON_BODY_BYTES)
      throw new PageError(413, 'BODY_TOO_LARGE', `the body is larger than ${MAX_JSON_BODY_BYTES} bytes`);
    chunks.push(chunk as Buffer);
  }
  let body: unknown;
  try {
    body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
  } catch {
    throw new PageError(400, 'VALIDATION_FAILED', 'the body is not JSON');
  }
  if (typeof body !== 'object' || body === null || Array.isArray(body))
    throw new PageError(400, 'VALIDATION_FAILED', 'the body must be a JSON object');
  return body as Record<string, unknown>;
}

export function sendJson(
  response: ServerResponse,
  statusCode: number,
  body: unknown,
  headers: Record<string, string | string[]> = {},
): void {
  const text = JSON.stringify(body);
  response.writeHead(statusCode, {
    'content-type': 'application/json; charset=utf-8',
    'cache-control': 'no-store',
    'content-length': Buffer.byteLength(text),
    ...headers,
  });
  response.end(text);
}

export function sendError(response: ServerResponse, error: PageError): void {
  sendJson(response, error.statusCode, {
    statusCode: error.statusCode,
    error: errorName(error.statusCode),
    code: error.code,
    message: error.message,
  });
}

function errorName(statusCode: number): string {
  return (
    {
      400: 'Bad Request',
      403: 'Forbidden',
      404: 'Not Found',
      405: 'Method Not Allowed',
      409: 'Conflict',
      413: 'Payload Too Large',
      415: 'Unsupported Media Type',
      502: 'Bad Gateway',
    }[statusCode] ?? 'Error'
  );
}
