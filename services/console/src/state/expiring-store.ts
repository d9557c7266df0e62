import { randomBytes } from 'node:crypto';
import { LRUCache } from 'lru-cache';

export interface ExpiringStoreOptions {
  /** An entry not read for this long is gone. */
  idleMs: number;
  /** An entry is gone this long after it was created, however often it is read. */
  maxAgeMs: number;
  /** Entries kept; the least recently used go first beyond it. */
  maxEntries: number;
  /** ms since the epoch. */
  now: () => number;
}

interface Entry<T> {
  value: T;
  createdAt: number;
  lastUsedAt: number;
}

/**
 * Values kept in this replica's memory under random, unguessable ids (256 bits,
 * base64url): the console's sessions and the sign-ins waiting for the provider's
 * answer. Bounded in size and in time; nothing survives a restart, which signs people
 * out and is the whole cost (see the README: one replica's memory, sticky routing).
 */
export class ExpiringStore<T extends object> {
  private readonly entries: LRUCache<string, Entry<T>>;

  constructor(private readonly options: ExpiringStoreOptions) {
    this.entries = new LRUCache({ max: options.maxEntries });
  }

  /** Keeps `value` under a new id, and returns the id. */
  create(value: T): string {
    const id = randomBytes(32).toString('base64url');
    const now = this.options.now();
    this.entries.set(id, { value, createdAt: now, lastUsedAt: now });
    return id;
  }

  /** The value, when it exists and has not expired; reading it counts as use. */
  get(id: string): T | undefined {
    const entry = this.entries.get(id);
    if (!entry) return undefined;
    const now = this.options.now();
    if (now - entry.lastUsedAt > this.options.idleMs || now - entry.createdAt > this.options.maxAgeMs) {
      this.entries.delete(id);
      return undefined;
    }
    entry.lastUsedAt = now;
    return entry.value;
  }

  /** Replaces the value of a live id (no-op when it expired meanwhile). */
  update(id: string, value: T): void {
    const entry = this.entries.get(id);
    if (entry) entry.value = value;
  }

  /** Removes the id and returns what it held, when it was still live (a value taken once). */
  take(id: string): T | undefined {
    const value = this.get(id);
    this.entries.delete(id);
    return value;
  }

  delete(id: string): void {
    this.entries.delete(id);
  }

  get size(): number {
    return this.entries.size;
  }
}
