import { createHash } from 'node:crypto';

/** A strong ETag over the exact bytes served (a JWT's text is its bytes). */
export function computeEtag(token: string | Uint8Array): string {
  const hash = createHash('sha256');
  if (typeof token === 'string') hash.update(token, 'utf8');
  else hash.update(token);
  return `"${hash.digest('base64url')}"`;
}

export interface MaxAgeOptions {
  ttl?: number | null;
  exp?: number | null;
  /** Seconds since the epoch. */
  nowSeconds: number;
  defaultMaxAge: number;
}

/**
 * `max-age` for a list: min(ttl, exp − now) when either is present, never beyond
 * `exp` (0 once expired), else the configured default (STATUS-LIST.md, Serving).
 */
export function computeMaxAge(options: MaxAgeOptions): number {
  const bounds: number[] = [];
  if (options.ttl != null) bounds.push(options.ttl);
  if (options.exp != null) bounds.push(options.exp - options.nowSeconds);
  if (bounds.length === 0) return options.defaultMaxAge;
  return Math.max(0, Math.floor(Math.min(...bounds)));
}
