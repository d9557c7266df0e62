import type { StatusListRecord } from '@tessera/contracts';
import type { StatusListRow } from '../db/schema.js';

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
