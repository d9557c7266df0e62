/** What the read path needs to answer a GET without the database. */
export interface CachedStatusList {
  jwt: string;
  etag: string;
  ttl: number | null;
  exp: number | null;
  updatedAt: Date;
}

/** A list changed recently, as the change poll reports it. */
export interface ListChange {
  id: string;
  etag: string;
}

interface Entry {
  /** `null` remembers that no such list existed. */
  value: CachedStatusList | null;
  /** When this value was last known to be current (local clock, ms). */
  confirmedAt: number;
}

export interface StatusListCacheOptions {
  /** Longest time an entry is served after it was last confirmed current: the staleness bound across replicas. */
  ttlMs: number;
  maxEntries: number;
  now?: () => number;
}

/**
 * In-memory read cache of status lists, per replica.
 *
 * Invariants:
 * - an entry is served only within `ttlMs` of the moment it was last confirmed
 *   current: when it was read from the database, or when a change poll that started
 *   after that read reported no different version of it. A replica that did not see
 *   a write therefore serves the old list for at most `ttlMs` (in practice for at
 *   most one poll interval); when polls fail, entries expire and reads go to the database.
 * - a write acknowledged by this replica replaces the entry before the response is
 *   sent, so this replica never serves the old list after its own successful write.
 * - concurrent misses for one id share one database read.
 * Entries beyond `maxEntries` are evicted, least recently loaded first.
 */
export class StatusListCache {
  private readonly entries = new Map<string, Entry>();
  private readonly loading = new Map<string, Promise<CachedStatusList | null>>();
  /** Counts local writes per id, so a read that started before one does not overwrite it. */
  private readonly writes = new Map<string, number>();
  private readonly now: () => number;

  constructor(private readonly options: StatusListCacheOptions) {
    this.now = options.now ?? Date.now;
  }

  async get(id: string, load: (id: string) => Promise<CachedStatusList | null>): Promise<CachedStatusList | null> {
    const entry = this.entries.get(id);
    if (entry && this.now() - entry.confirmedAt < this.options.ttlMs) return entry.value;
    const pending = this.loading.get(id);
    if (pending) return pending;
    const startedAt = this.now();
    const writesBefore = this.writes.get(id) ?? 0;
    const promise: Promise<CachedStatusList | null> = load(id).then(
      (value) => {
        if (this.loading.get(id) === promise) this.loading.delete(id);
        // A write acknowledged here while this read was in flight is newer: keep it.
        if ((this.writes.get(id) ?? 0) === writesBefore) this.store(id, value, startedAt);
        return value;
      },
      (error: unknown) => {
        if (this.loading.get(id) === promise) this.loading.delete(id);
        throw error;
      },
    );
    this.loading.set(id, promise);
    return promise;
  }

  /** Called after a committed write: this replica serves the new list at once. */
  set(id: string, value: CachedStatusList): void {
    this.loading.delete(id);
    this.writes.set(id, (this.writes.get(id) ?? 0) + 1);
    this.store(id, value, this.now());
  }

  /**
   * Applies a change poll that started at `startedAt` (local clock) and saw every
   * write committed before it: entries whose version differs from a reported change
   * are dropped; the others are confirmed current as of `startedAt`.
   */
  applyChanges(startedAt: number, changes: ListChange[]): void {
    for (const change of changes) {
      const entry = this.entries.get(change.id);
      if (entry && entry.value?.etag !== change.etag && entry.confirmedAt <= startedAt) this.entries.delete(change.id);
    }
    for (const entry of this.entries.values()) {
      if (entry.confirmedAt < startedAt) entry.confirmedAt = startedAt;
    }
  }

  private store(id: string, value: CachedStatusList | null, confirmedAt: number): void {
    if (this.options.maxEntries === 0 || this.options.ttlMs === 0) return;
    this.entries.delete(id);
    this.entries.set(id, { value, confirmedAt });
    while (this.entries.size > this.options.maxEntries) {
      const oldest = this.entries.keys().next().value as string;
      this.entries.delete(oldest);
    }
  }

  get size(): number {
    return this.entries.size;
  }
}
