import { createHash } from 'node:crypto';
import type { Clock } from '../clock.js';
import type { Logger } from '../logger.js';
import type { RateLimitMetrics } from './rate-limit-metrics.js';
import type { RateLimitDelta, RateLimitTotal, RateLimitWindowStore } from './rate-limit-window-store.js';

/** One key's window on this replica. */
interface Window {
  /** End of the window, ms since the epoch: windows are aligned to multiples of their length, so every replica names the same one. */
  endsAtMs: number;
  /** Requests this replica counted in the window. */
  own: number;
  /** Of `own`, those sent to the store (or on their way). */
  sent: number;
  /** The other replicas' count, as the last exchange answered it. */
  others: number;
  /** The key as stored: a hash of scope and key (the store never holds a client address). */
  storeKey: string;
  /** Its scope's map and key there, to forget it. */
  scope: Map<string, Window>;
  key: string;
}

export interface SharedRateLimitCountsOptions {
  store: RateLimitWindowStore;
  clock: Clock;
  logger: Logger;
  /** How often the counts are exchanged with the store (RATE_LIMIT_SYNC_MS): the staleness bound is twice this. */
  syncIntervalMs: number;
  metrics?: RateLimitMetrics;
  /** Windows remembered at most, over all scopes (this replica's, and the others' it has not seen yet, each); the oldest goes first. */
  maxKeys?: number;
  /** How often ended windows are deleted from the store, in batches of `cleanupBatchSize` (SKIP LOCKED: replicas share the work). */
  cleanupIntervalMs?: number;
  cleanupBatchSize?: number;
}

/** About 150 bytes a window: some 30 MB at most for each of the two maps. */
const MAX_KEYS = 200_000;
/** Deltas sent per statement: a statement stays short whatever the number of active keys. */
const EXCHANGE_CHUNK = 5000;
/** A failing store is logged once per this long, not once per exchange. */
const WARN_EVERY_MS = 60_000;
/** How far before the store's time of an exchange the next one reads changes back (a writer's commit lags its timestamp). */
const CHANGES_MARGIN_MS = 1000;
/** A key under its limit is exchanged at once when it grew by 1/this of the limit since its last exchange. */
const EARLY_EXCHANGE_SHARE = 10;
/** Hash input prefix: a namespace of its own, apart from the first-request windows of earlier versions. */
const STORE_KEY_VERSION = 'aligned-v1';

/**
 * Per-key request counts in fixed windows, judged in memory and shared between replicas
 * in the background (issue 28, item 1). A request is counted and judged here, with no
 * I/O: its answer is this replica's count plus the other replicas' as of the last
 * exchange. Every `syncIntervalMs` one statement (`RateLimitWindowStore.exchange`) sends
 * the counts that grew since and reads back the totals of every window any replica
 * changed since the previous exchange — the keys this replica has not seen yet included,
 * so a key flooding one replica is refused by another from its first request there. A
 * key under its limit that grew by a tenth of the limit since its last exchange is
 * exchanged at once (in the background), so a burst is shared before it can use the limit
 * up on each replica.
 *
 * Staleness bound: what one replica counts is in the store within `syncIntervalMs` (plus
 * a statement) and read by every other replica within the next `syncIntervalMs`: each
 * replica judges with the others' counts at most 2 × `syncIntervalMs` old. A replica never
 * admits more than the limit on its own, so a key gets at most the limit plus what the
 * replicas admit until their next exchange after its total reached it: a tenth of the
 * limit each, or what arrives in 2 × `syncIntervalMs`, whichever comes first (in the
 * worst case — a store that does not answer — replicas × limit).
 *
 * When the store fails, the counts stay in memory and go with the next exchange that
 * succeeds: each replica goes on enforcing the limit with what it knows (at worst,
 * replicas × limit in all), never an error for the client.
 */
export class SharedRateLimitCounts {
  private readonly scopes = new Map<string, Map<string, Window>>();
  /** Every window of this replica by its store key: where the exchange's totals land. */
  private readonly windows = new Map<string, Window>();
  /** Totals of running windows the other replicas changed, for keys this replica has not counted (yet). */
  private readonly seen = new Map<string, RateLimitTotal>();
  private readonly maxKeys: number;
  /** The store's time at the last exchange that read changes, less a margin: the next reads what changed since. */
  private changedSince: Date | undefined;
  private syncTimer: NodeJS.Timeout | undefined;
  private cleanupTimer: NodeJS.Timeout | undefined;
  private exchanging: Promise<void> | undefined;
  private cleaning: Promise<void> | undefined;
  private lastWarnedAt = -Infinity;
  /** An exchange was asked for while one ran: another follows it. */
  private again = false;
  private stopped = false;

  constructor(private readonly options: SharedRateLimitCountsOptions) {
    this.maxKeys = options.maxKeys ?? MAX_KEYS;
  }

  /**
   * Counts one request of `key` in `scope` (a route) whose limit is `max` per `windowMs`,
   * and answers the count for all replicas as known now, this request included, and the
   * ms until the window ends.
   */
  hit(scope: string, key: string, windowMs: number, max: number): { current: number; ttlMs: number } {
    const now = this.options.clock().getTime();
    const endsAtMs = (Math.floor(now / windowMs) + 1) * windowMs;
    const windows = this.scopeOf(scope);
    let window = windows.get(key);
    if (!window || window.endsAtMs < endsAtMs) window = this.open(windows, scope, key, endsAtMs, window);
    window.own += 1;
    const current = window.own + window.others;
    // A burst under the limit is shared at once, not at the next tick: the other replicas
    // learn of it after a tenth of the limit at most (a key over it needs no hurry).
    if (current <= max && window.own - window.sent >= Math.ceil(max / EARLY_EXCHANGE_SHARE)) this.syncSoon();
    return { current, ttlMs: Math.max(0, window.endsAtMs - now) };
  }

  /** Starts the exchanges and the cleanup of ended windows; the timers never keep the process alive. */
  start(): void {
    if (this.syncTimer) return;
    this.syncTimer = setInterval(() => void this.sync(), this.options.syncIntervalMs).unref();
    this.cleanupTimer = setInterval(() => void this.cleanUp(), this.options.cleanupIntervalMs ?? 60_000).unref();
  }

  /** Stops the timers and sends what is left (a replica leaving hands its counts over). */
  async stop(): Promise<void> {
    this.stopped = true;
    clearInterval(this.syncTimer);
    clearInterval(this.cleanupTimer);
    await this.cleaning;
    await this.sync();
  }

  /**
   * One exchange (the timer's; tests call it to skip the wait): forgets windows that
   * ended, sends every count that grew, takes the totals back. Never throws: a failed
   * exchange is logged, and its counts go with the next one.
   */
  sync(): Promise<void> {
    this.exchanging ??= this.exchange().finally(() => {
      this.exchanging = undefined;
      if (this.again) {
        this.again = false;
        void this.sync();
      }
    });
    return this.exchanging;
  }

  /** An exchange as soon as possible, in the background (never on the request's path): now, or right after the one running. */
  private syncSoon(): void {
    if (this.stopped) return;
    if (this.exchanging) this.again = true;
    else setImmediate(() => void this.sync());
  }

  private open(windows: Map<string, Window>, scope: string, key: string, endsAtMs: number, ended?: Window): Window {
    if (ended) this.forget(ended);
    // The bound holds over every scope together: the oldest window opened goes first.
    else if (this.windows.size >= this.maxKeys) this.forget(this.windows.values().next().value!);
    const storeKey = createHash('sha256').update(`${STORE_KEY_VERSION}\n${scope}\n${key}`).digest('base64url');
    // What the others counted of this key before this replica saw it.
    const seen = this.seen.get(storeKey);
    this.seen.delete(storeKey);
    const window: Window = {
      endsAtMs,
      own: 0,
      sent: 0,
      others: seen?.endsAtMs === endsAtMs ? seen.count : 0,
      storeKey,
      scope: windows,
      key,
    };
    windows.set(key, window);
    this.windows.set(storeKey, window);
    return window;
  }

  private forget(window: Window): void {
    window.scope.delete(window.key);
    this.windows.delete(window.storeKey);
  }

  private scopeOf(scope: string): Map<string, Window> {
    let windows = this.scopes.get(scope);
    if (!windows) {
      windows = new Map();
      this.scopes.set(scope, windows);
    }
    return windows;
  }

  private async exchange(): Promise<void> {
    const now = this.options.clock().getTime();
    const pending: Array<{ window: Window; delta: RateLimitDelta }> = [];
    for (const window of this.windows.values()) {
      if (window.endsAtMs <= now) this.forget(window);
      else if (window.own > window.sent)
        pending.push({
          window,
          delta: { key: window.storeKey, endsAtMs: window.endsAtMs, delta: window.own - window.sent },
        });
    }
    for (const [storeKey, total] of this.seen) if (total.endsAtMs <= now) this.seen.delete(storeKey);
    this.options.metrics?.trackedKeys.set(this.windows.size);
    // The first statement also reads what the others changed (even with nothing to send).
    for (let start = 0; start === 0 || start < pending.length; start += EXCHANGE_CHUNK) {
      if (!(await this.exchangeChunk(pending.slice(start, start + EXCHANGE_CHUNK), start === 0))) return;
    }
  }

  /** Sends `chunk` (and, when `readChanges`, reads what the others changed); answers whether the store answered. */
  private async exchangeChunk(
    chunk: Array<{ window: Window; delta: RateLimitDelta }>,
    readChanges: boolean,
  ): Promise<boolean> {
    for (const { window, delta } of chunk) window.sent += delta.delta;
    try {
      const { totals, now } = await this.options.store.exchange(
        chunk.map(({ delta }) => delta),
        readChanges ? { since: this.changedSince } : undefined,
      );
      for (const total of totals) this.learn(total);
      // Another replica's change stamped just before `now` may commit after this
      // statement's snapshot: the next exchange reads back from a margin before it.
      if (readChanges) this.changedSince = new Date(now.getTime() - CHANGES_MARGIN_MS);
      this.options.metrics?.exchanges.inc({ result: 'ok' });
      return true;
    } catch (error) {
      for (const { window, delta } of chunk) window.sent -= delta.delta;
      this.options.metrics?.exchanges.inc({ result: 'failed' });
      this.warn(
        error,
        'rate-limit counts not shared (the store failed): each replica limits on its own until it is back',
      );
      return false;
    }
  }

  private learn(total: RateLimitTotal): void {
    const window = this.windows.get(total.key);
    if (window) {
      // The store's total includes everything this replica sent; the rest is the others'.
      if (window.endsAtMs === total.endsAtMs) window.others = Math.max(0, total.count - window.sent);
      return;
    }
    this.seen.delete(total.key);
    if (this.seen.size >= this.maxKeys) this.seen.delete(this.seen.keys().next().value!);
    this.seen.set(total.key, total);
  }

  private cleanUp(): Promise<void> {
    this.cleaning ??= (async () => {
      const batch = this.options.cleanupBatchSize ?? 1000;
      try {
        // A full batch means more may be left: go on, a bounded number of times per run.
        for (let run = 0; run < 10 && (await this.options.store.deleteEnded(batch)) === batch; run++);
      } catch (error) {
        this.warn(error, 'ended rate-limit windows not deleted; trying again later');
      }
    })().finally(() => (this.cleaning = undefined));
    return this.cleaning;
  }

  private warn(error: unknown, message: string): void {
    const now = this.options.clock().getTime();
    if (now - this.lastWarnedAt < WARN_EVERY_MS) return;
    this.lastWarnedAt = now;
    this.options.logger.warn({ err: error }, message);
  }
}
