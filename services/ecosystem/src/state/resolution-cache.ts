import type { IntentResolveRequest } from '@tessera/contracts';
import { AppError, type Clock } from '@tessera/service-kit';

type Outcome<T> = { ok: true; value: T } | { ok: false; error: AppError };

interface Entry<T> {
  outcome: Outcome<T>;
  loadedAt: number;
}

export interface ResolutionCacheOptions {
  /** Longest time an outcome is reused, also when change notifications stop arriving. */
  ttlMs: number;
  maxEntries: number;
  /** The time entries are loaded and aged by (the app's clock). */
  clock: Clock;
}

/**
 * Intent resolutions (`ecosystem.v1.intent.resolve`), reused until the data they were
 * computed from may have changed (see change-notifications.ts for what empties it).
 *
 * Invariants:
 * - every write to the tables a resolution reads notifies `ecosystem_changed` when it
 *   commits (statement triggers); a notification, or a (re)started LISTEN, empties the
 *   cache and bumps its generation;
 * - a resolution computed while the generation changed is returned but not kept, so a
 *   result read before a commit never outlives that commit's notification;
 * - whatever happens to notifications, nothing is reused for longer than `ttlMs`.
 * Outcomes are kept whether they succeeded or failed with an AppError (e.g. NOT_A_MEMBER).
 */
export class ResolutionCache<T> {
  private readonly entries = new Map<string, Entry<T>>();
  private generation = 0;
  constructor(private readonly options: ResolutionCacheOptions) {}

  private now(): number {
    return this.options.clock().getTime();
  }

  async resolve(request: IntentResolveRequest, compute: () => Promise<T>): Promise<T> {
    const key = [request.ecosystemId.toLowerCase(), request.orgId, request.intent.toLowerCase(), request.role].join(
      '\u0000',
    );
    const entry = this.entries.get(key);
    if (entry && this.now() - entry.loadedAt < this.options.ttlMs) return unwrap(entry.outcome);
    const generation = this.generation;
    const loadedAt = this.now();
    let outcome: Outcome<T>;
    try {
      outcome = { ok: true, value: await compute() };
    } catch (error) {
      if (!(error instanceof AppError)) throw error;
      outcome = { ok: false, error };
    }
    if (generation === this.generation) this.store(key, { outcome, loadedAt });
    return unwrap(outcome);
  }

  /** Forgets everything: the data may have changed. */
  clear(): void {
    this.generation += 1;
    this.entries.clear();
  }

  get size(): number {
    return this.entries.size;
  }

  private store(key: string, entry: Entry<T>): void {
    if (this.options.ttlMs === 0 || this.options.maxEntries === 0) return;
    this.entries.delete(key);
    this.entries.set(key, entry);
    while (this.entries.size > this.options.maxEntries) this.entries.delete(this.entries.keys().next().value as string);
  }
}

function unwrap<T>(outcome: Outcome<T>): T {
  if (outcome.ok) return structuredClone(outcome.value);
  throw outcome.error;
}
