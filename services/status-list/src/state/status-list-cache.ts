import type { StoredToken } from '../domain/status-list-token.js';

/** What the read path needs to answer a GET without the database: the token (JWT text or CWT bytes) and its validators. */
export interface CachedStatusList extends StoredToken {
  etag: string;
  ttl: number | null;
  exp: number | null;
  updatedAt: Date;
}

/** A list written since the previous poll, as the change poll reports it. */
export interface ListChange {
  id: string;
  etag: string;
}

interface Entry {
  /** `null` remembers that no such list existed. */
  value: CachedStatusList | null;
  /** When the read (or local write) that produced the value started (local clock, ms). */
  loadedAt: number;
  /** Successful change polls completed when that read started. */
  loadGeneration: number;
}

export interface StatusListCacheOptions {
  /** Longest time an entry is served after it was last confirmed current: the staleness bound across replicas. */
  ttlMs: number;
  maxEntries: number;
  /** The clock in ms since the epoch (the app's clock; read on every lookup). */
  now: () => number;
}

/**
 * In-memory read cache of status lists, per replica.
 *
 * Invariants:
 * - an entry is served only within `ttlMs` of the moment it was last known current:
 *   when its read started, or when a later change poll that covers every write
 *   committed after that read reported no write to it. So a replica that did not see
 *   a write serves the old list for at most `ttlMs` (in practice about one poll
 *   interval); when polls fail, entries expire and reads go to the database.
 * - change poll n (0-based, poll 0 only establishes the watermark) reports every
 *   write committed after poll n-1's snapshot; an entry whose read started after
 *   poll g completed (generation g+1) is covered by every poll n >= g+1. Entries
 *   read before the first poll completed are never confirmed, only expire.
 * - a write acknowledged by this replica replaces its entry before the response is
 *   sent, so it never serves the old list after its own successful write; a read in
 *   flight across such a write, or across a poll that reported a write to its list,
 *   does not store its (possibly older) result.
 * - concurrent misses for one id share one database read.
 * - a served value is the very object stored, until the entry is replaced: what the
 *   read path derives from it once (its response headers and encodings) stays valid
 *   for as long as the value is served.
 * Entries beyond `maxEntries` are evicted, least recently loaded first.
 */
export class StatusListCache {
  private readonly entries = new Map<string, Entry>();
  private readonly loading = new Map<string, Promise<CachedStatusList | null>>();
  /** Bumped per id by local writes and by reported changes. */
  private readonly versions = new Map<string, number>();
  private readonly now: () => number;
  private completedPolls = 0;
  private lastPollStartedAt = Number.NEGATIVE_INFINITY;

  constructor(private readonly options: StatusListCacheOptions) {
    this.now = options.now;
  }

  /**
   * The list (or `null` for a list known not to exist): the cached value itself when it
   * is current, synchronously, so a hit costs no promise or microtask on the hot read
   * path; otherwise a promise of `load`'s answer, shared by concurrent misses.
   */
  get(
    id: string,
    load: (id: string) => Promise<CachedStatusList | null>,
  ): CachedStatusList | null | Promise<CachedStatusList | null> {
    const entry = this.entries.get(id);
    if (entry && this.now() - this.knownCurrentAt(entry) < this.options.ttlMs) return entry.value;
    const pending = this.loading.get(id);
    if (pending) return pending;
    const loadedAt = this.now();
    const loadGeneration = this.completedPolls;
    const versionBefore = this.versions.get(id) ?? 0;
    const promise: Promise<CachedStatusList | null> = load(id).then(
      (value) => {
        if (this.loading.get(id) === promise) this.loading.delete(id);
        if ((this.versions.get(id) ?? 0) === versionBefore) this.store(id, { value, loadedAt, loadGeneration });
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
    this.bump(id);
    this.store(id, { value, loadedAt: this.now(), loadGeneration: this.completedPolls });
  }

  /**
   * Applies a successful change poll that started at `startedAt` (local clock):
   * entries of lists written since the previous poll are dropped (unless they hold
   * that very version), and the others it covers count as current as of `startedAt`.
   */
  applyChanges(startedAt: number, changes: ListChange[]): void {
    for (const change of changes) {
      const entry = this.entries.get(change.id);
      if (entry?.value?.etag === change.etag) continue;
      this.bump(change.id);
      this.entries.delete(change.id);
    }
    this.completedPolls += 1;
    this.lastPollStartedAt = startedAt;
  }

  private knownCurrentAt(entry: Entry): number {
    const covered = entry.loadGeneration >= 1 && entry.loadGeneration <= this.completedPolls - 1;
    return covered ? Math.max(entry.loadedAt, this.lastPollStartedAt) : entry.loadedAt;
  }

  private bump(id: string): void {
    this.versions.set(id, (this.versions.get(id) ?? 0) + 1);
  }

  private store(id: string, entry: Entry): void {
    if (this.options.maxEntries === 0 || this.options.ttlMs === 0) return;
    this.entries.delete(id);
    this.entries.set(id, entry);
    while (this.entries.size > this.options.maxEntries) {
      const oldest = this.entries.keys().next().value as string;
      this.entries.delete(oldest);
      this.versions.delete(oldest);
    }
  }

  get size(): number {
    return this.entries.size;
  }
}
