import type { AggregationCache, CachedAggregation } from '../state/aggregation-cache.js';
import { countStatusLists, listStatusListUris } from '../db/status-list-aggregation.js';
import type { StatusListDb } from '../db/types.js';

export interface ReadStatusListAggregationDeps {
  db: StatusListDb;
  aggregation: Pick<AggregationCache, 'get'>;
}

/** The URIs to serve: the cached value itself (what the read route derives from it is kept with it). */
export type ReadStatusListAggregationResult = CachedAggregation;

/**
 * The Status List Aggregation (draft-ietf-oauth-status-list, Status List Aggregation):
 * the URI (`sub`) of every list this service holds, from this replica's memory within
 * the staleness bound (synchronously), else refreshed from the database (a promise).
 */
export function readStatusListAggregation(
  deps: ReadStatusListAggregationDeps,
): ReadStatusListAggregationResult | Promise<ReadStatusListAggregationResult> {
  return deps.aggregation.get({
    listUris: () => listStatusListUris(deps.db),
    countLists: () => countStatusLists(deps.db),
  });
}
