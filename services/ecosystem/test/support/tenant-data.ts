import { snapshotSchema } from '@tessera/service-kit/testing';
import type { Harness } from './harness.js';

/**
 * Every row of the ecosystem's schema but the per-address request counts: the public
 * trust-list routes count every request for their rate limit (shared through PostgreSQL in
 * the background, so a count may land at any moment), which is no tenant's data and
 * changes by design. "Nothing changed" compares these snapshots.
 */
export async function snapshotTenantData(h: Pick<Harness, 'database'>): Promise<Record<string, unknown[]>> {
  const { rate_limit_windows: _requestCounts, ...data } = await snapshotSchema(h.database, 'ecosystem');
  return data;
}
