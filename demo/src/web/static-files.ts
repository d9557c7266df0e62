import { readFile } from 'node:fs/promises';
import type { ServerResponse } from 'node:http';
import { fileURLToPath } from 'node:url';

/** The page itself: plain files in demo/web, served as they are (no build step). */
const WEB_DIR = new URL('../../web/', import.meta.url);

const FILES: Record<string, { file: string; type: string }> = {
  '/': { file: 'index.html', type: 'text/html; charset=utf-8' },
  '/app.js': { file: 'app.js', type: 'text/javascript; charset=utf-8' },
  '/style.css': { file: 'style.css', type: 'text/css; charset=utf-8' },
};

/**
 * The page's security headers: its own scripts, styles and images only (the QR code
 * is an image from this backend), no framing, and no Referer, so the `response_code`
 * in the URL after a same-device redirect never leaves the page.
 */
const SECURITY_HEADERS = {
  'content-security-policy':
    "default-src 'self'; img-src 'self'; script-src 'self'; style-src 'self'; connect-src 'self'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'",
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
};

/** Serves one of the page's files; false when the path is none of them. */
export async function serveStaticFile(pathname: string, response: ServerResponse): Promise<boolean> {
  const entry = FILES[pathname];
  if (!entry) return false;
  const content = await readFile(fileURLToPath(new URL(entry.file, WEB_DIR)));
  response.writeHead(200, {
    'content-type': entry.type,
    'content-length': content.length,
    'cache-control': 'no-cache',
    ...SECURITY_HEADERS,
  });
  response.end(content);
  return true;
}
