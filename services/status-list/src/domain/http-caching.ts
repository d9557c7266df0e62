import { createHash } from 'node:crypto';

/** A strong ETag over the exact bytes served. */
export function computeEtag(jwt: string): string {
  return `"${createHash('sha256').update(jwt, 'utf8').digest('base64url')}"`;
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
