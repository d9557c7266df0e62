import { promisify } from 'node:util';
import { brotliCompress, constants, deflate, gzip } from 'node:zlib';

/** The content codings a list is served in besides identity, best first (RFC 9110 §8.4.1). */
export const CONTENT_ENCODINGS = ['br', 'gzip', 'deflate'] as const;
export type ContentEncoding = (typeof CONTENT_ENCODINGS)[number];

const brotliAsync = promisify(brotliCompress);
const gzipAsync = promisify(gzip);
const deflateAsync = promisify(deflate);

/**
 * `body` in `encoding`, compressed off the event loop (zlib's thread pool). Brotli at
 * quality 4, as @fastify/compress uses: a status list token is base64url of an
 * already deflated list, and higher qualities gain nothing on it while costing up to
 * a hundred times more on a large list. `deflate` is the zlib format HTTP means by it.
 */
export function encodeBody(body: Buffer, encoding: ContentEncoding): Promise<Buffer> {
  switch (encoding) {
    case 'br':
      return brotliAsync(body, {
        params: {
          [constants.BROTLI_PARAM_QUALITY]: 4,
          [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
          [constants.BROTLI_PARAM_SIZE_HINT]: body.length,
        },
      });
    case 'gzip':
      return gzipAsync(body);
    case 'deflate':
      return deflateAsync(body);
  }
}
