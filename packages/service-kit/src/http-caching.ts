/**
 * RFC 9110 §13.1.2: If-None-Match uses weak comparison, so `W/"x"` matches `"x"`;
 * `*` matches any current representation. Shared by the services that serve lists
 * with validators (status lists, trust lists).
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
