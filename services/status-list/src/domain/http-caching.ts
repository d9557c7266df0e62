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

/**
 * RFC 9110 §13.1.2: If-None-Match uses weak comparison, so `W/"x"` matches `"x"`;
 * `*` matches any current representation.
 */
export function ifNoneMatchHits(header: string | undefined, etag: string): boolean {
  if (!header) return false;
  // The common case: a cache sends back the one validator it was given.
  if (header === etag) return true;
  const trimmed = header.trim();
  if (trimmed === '*') return true;
  const opaque = etag.replace(/^W\//, '');
  return trimmed.split(',').some((candidate) => candidate.trim().replace(/^W\//, '') === opaque);
}
