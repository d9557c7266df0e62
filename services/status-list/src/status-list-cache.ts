/** What the read path needs to answer a GET without the database. */
export interface CachedStatusList {
  jwt: string;
  etag: string;
  ttl: number | null;
  exp: number | null;
  updatedAt: Date;
}

interface Entry {
  value: CachedStatusList | null;
  loadedAt: number;
}

export interface StatusListCacheOptions {
  /** How long an entry may be served before it is re-read: the staleness bound across replicas. */
  ttlMs: number;
  maxEntries: number;
  now?: () => number;
}

/**
 * In-memory read cache of status lists, per replica.
 *
 * Invariants:
 * - an entry (or a remembered "no such list") is served for at most `ttlMs` after it
 *   was read from the database; after that the next read goes to the database. So a
 *   replica that did not see a write serves the old list for at most `ttlMs`.
 * - a write acknowledged by this replica replaces the entry before the response is
 *   sent, so this replica never serves the old list after its own successful PATCH.
 * - concurrent misses for one id share one database read.
 * Entries are evicted least recently loaded first beyond `maxEntries`.
 */
export class StatusListCache {
  private readonly entries = new Map<string, Entry>();
  private readonly loading = new Map<string, Promise<CachedStatusList | null>>();
  private readonly now: () => number;
  /** Counts local writes per id, so a read that started before one does not overwrite it. */
  private readonly writes = new Map<string, number>();

  constructor(private readonly options: StatusListCacheOptions) {
    this.now = options.now ?? Date.now;
  }

  async get(id: string, load: (id: string) => Promise<CachedStatusList | null>): Promise<CachedStatusList | null> {
    const entry = this.entries.get(id);
    if (entry && this.now() - entry.loadedAt < this.options.ttlMs) return entry.value;
    const pending = this.loading.get(id);
    if (pending) return pending;
    const startedAt = this.now();
    const writesBefore = this.writes.get(id) ?? 0;
    const promise = load(id).then(
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

  private store(id: string, value: CachedStatusList | null, loadedAt: number): void {
    if (this.options.maxEntries === 0 || this.options.ttlMs === 0) return;
    // The load started before `loadedAt`; counting from its start keeps the bound honest.
    this.entries.delete(id);
    this.entries.set(id, { value, loadedAt });
    while (this.entries.size > this.options.maxEntries) {
      const oldest = this.entries.keys().next().value as string;
      this.entries.delete(oldest);
    }
  }

  get size(): number {
    return this.entries.size;
  }
}
