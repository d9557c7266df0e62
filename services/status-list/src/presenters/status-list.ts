import type { StatusListRecord } from '@tessera/contracts';
import type { CachedStatusList } from '../cache/status-list-cache.js';
import type { StatusListRow } from '../db/schema.js';
import { computeMaxAge } from '../domain/http-caching.js';

/** The body of a write's answer: the list's metadata, never the token itself. */
export function presentStatusListRecord(row: StatusListRow): StatusListRecord {
  return {
    id: row.id,
    bits: row.bits,
    sub: row.sub,
    iat: row.iat,
    ...(row.exp !== null ? { exp: row.exp } : {}),
    ...(row.ttl !== null ? { ttl: row.ttl } : {}),
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

/** `Location` of a created list; relative when no PUBLIC_BASE_URL is configured. */
export function statusListLocation(publicBaseUrl: string | undefined, id: string): string {
  return `${publicBaseUrl ?? ''}/status-lists/${id}`;
}

/**
 * The validators and caching headers of a served list (STATUS-LIST.md, Serving), sent
 * with 200 and 304 alike. `nowSeconds` is seconds since the epoch; `defaultMaxAge`
 * applies to lists without `ttl` or `exp` (DEFAULT_MAX_AGE_SECONDS).
 */
export function presentServingHeaders(list: CachedStatusList, nowSeconds: number, defaultMaxAge: number): Record<string, string> {
  const maxAge = computeMaxAge({ ttl: list.ttl, exp: list.exp, nowSeconds, defaultMaxAge });
  return {
    etag: list.etag,
    'cache-control': `public, max-age=${maxAge}`,
    'last-modified': list.updatedAt.toUTCString(),
    vary: 'Accept, Accept-Encoding',
  };
}
