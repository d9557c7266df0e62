/** The Status List Aggregation as last read: the URI of every list, oldest first. */
export interface CachedAggregation {
  uris: readonly string[];
}

/** How the cache reads the database: the whole list of URIs, or just how many lists there are. */
export interface AggregationSource {
  listUris(): Promise<string[]>;
  countLists(): Promise<number>;
}

export interface AggregationCacheOptions {
  /** Longest time the aggregation is served after it was last known current (CACHE_TTL_MS). */
  ttlMs: number;
  /** The clock in ms since the epoch (the app's clock). */
  now: () => number;
}

/**
 * The aggregation, per replica, under the same staleness bound as the lists
 * (`ttlMs`). Lists are never deleted and their `sub` never changes, so the aggregation
 * changes exactly when the number of lists does: past the bound, one count tells
 * whether the kept value is still current (then it is kept, with everything derived
 * from it) or must be read again. A list created through this replica invalidates the
 * value before the write is answered, so this replica never serves an aggregation
 * without a list it acknowledged; a read in flight across that write does not count
 * as a confirmation. Concurrent refreshes share one.
 */
export class AggregationCache {
  private value: (CachedAggregation & { lists: number }) | undefined;
  private confirmedAt = Number.NEGATIVE_INFINITY;
  private generation = 0;
  private refreshing: Promise<CachedAggregation> | undefined;
  private readonly now: () => number;

  constructor(private readonly options: AggregationCacheOptions) {
    this.now = options.now;
  }

  /** The current aggregation: synchronously within the bound, else a promise of a refresh. */
  get(source: AggregationSource): CachedAggregation | Promise<CachedAggregation> {
    if (this.value && this.now() - this.confirmedAt < this.options.ttlMs) return this.value;
    if (this.refreshing) return this.refreshing;
    const refreshing: Promise<CachedAggregation> = this.refresh(source).finally(() => {
      if (this.refreshing === refreshing) this.refreshing = undefined;
    });
    this.refreshing = refreshing;
    return refreshing;
  }

  /** Called after this replica created a list: the next read looks again (not joining a read already under way). */
  invalidate(): void {
    this.generation += 1;
    this.confirmedAt = Number.NEGATIVE_INFINITY;
    this.refreshing = undefined;
  }

  private async refresh(source: AggregationSource): Promise<CachedAggregation> {
    const startedAt = this.now();
    const generation = this.generation;
    const kept = this.value;
    let value = kept;
    if (!kept || (await source.countLists()) !== kept.lists) {
      const uris = await source.listUris();
      value = { uris, lists: uris.length };
    }
    // A create through this replica during the read: what was read may lack that list,
    // so it answers only the requests that joined before, and is not kept.
    if (this.generation === generation) {
      this.value = value;
      this.confirmedAt = startedAt;
    }
    return value!;
  }
}
