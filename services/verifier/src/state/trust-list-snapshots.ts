import {
  trustListGetRpc,
  type TrustListChangedEvent,
  type TrustListEntity,
  type TrustListSnapshot,
} from '@tessera/contracts';
import { callService, type Clock, dependencyUnavailable, type Logger, type MessageBus } from '@tessera/service-kit';
import type { VerifierMetrics } from '../metrics/verifier-metrics.js';
import { resolveTrustListTrust } from '../verification/resolve-trust-list-trust.js';
import type { ResolvedTrustStore, VerificationCache } from '../verification/trust-store.js';

/** An ecosystem's trust list as this replica holds it. */
export interface HeldTrustList {
  ecosystemId: string;
  sequence: number;
  /** Not to be used from this time on (the list's `nextUpdate`). */
  nextUpdate: Date;
  entities: readonly TrustListEntity[];
  /** The trust the list grants, resolved on first use and kept with the snapshot. */
  trust(): ResolvedTrustStore;
}
/**
 * What use cases ask of the replica's trust lists (sessions, verifications, the start
 * step that follows the lists of open sessions); `TrustListSnapshots` is the one kept.
 */
export interface TrustLists {
  /** A current snapshot of the ecosystem's list (see `TrustListSnapshots.current`). */
  current(ecosystemId: string, options?: { requestId?: string }): Promise<HeldTrustList>;
  /** A current snapshot, asked for on behalf of an organisation that names the ecosystem itself. */
  currentForMember(ecosystemId: string, orgId: string, options?: { requestId?: string }): Promise<HeldTrustList>;
  /** Fetches the lists of these ecosystems now; failures are logged, not thrown. */
  follow(ecosystemIds: readonly string[]): Promise<void>;
}

export interface TrustListSnapshotsDeps {
  bus: MessageBus;
  clock: Clock;
  logger: Logger;
  /** The replica's verification cache: list anchors of one content share their validated chains. */
  cache: VerificationCache;
  /** ECOSYSTEM_TIMEOUT_MS: how long `ecosystem.v1.trust-list.get` may take. */
  timeoutMs: number;
  /** TRUST_LIST_REFRESH_MS: how often every held list is asked for again (core NATS may drop a change event). */
  refreshMs: number;
  /** Where each request for a list is counted and timed. */
  metrics?: Pick<VerifierMetrics, 'observeTrustListFetch'>;
}

/** Re-asks at most this many times in one fetch when a change event announced a newer sequence than the answer had. */
const CATCH_UP_ATTEMPTS = 3;

/**
 * One replica's snapshots of ecosystem trust lists, one per ecosystem, read
 * over NATS (`ecosystem.v1.trust-list.get`). Invariants:
 * - a snapshot is never handed out at or after its `nextUpdate` (by the app's
 *   clock): a current one is fetched, and when none can be had the caller gets
 *   503 DEPENDENCY_UNAVAILABLE;
 * - concurrent fetches of one ecosystem are one request (coalesced);
 * - a held snapshot is replaced only by one of the same or a higher sequence;
 * - a change event with a higher sequence than held makes a fetch, and a fetch
 *   answered below the highest announced sequence asks again, so a change
 *   committed before its event is never overtaken by an older answer;
 * - every held list is asked for again every `refreshMs` (a dropped event is
 *   caught there), with `knownSequence` so an unchanged list costs no entities.
 * Only ecosystems this replica needed (a session, or an open session at start)
 * are followed; events of others are ignored. The change events reach `announce`
 * through the replica's one subscription (`bus/trust-list-changed-subscriber.ts`).
 */
export class TrustListSnapshots implements TrustLists {
  private readonly held = new Map<string, HeldTrustList>();
  private readonly fetching = new Map<string, Promise<HeldTrustList>>();
  /** The highest sequence a change event announced, per ecosystem. */
  private readonly announced = new Map<string, number>();

  constructor(private readonly deps: TrustListSnapshotsDeps) {}

  /** Refreshes every held list periodically, until the returned function is called (the app's close). */
  start(): () => void {
    const timer = setInterval(() => void this.refreshHeld(), this.deps.refreshMs);
    timer.unref();
    return () => clearInterval(timer);
  }

  /**
   * A change event (`ecosystem.v1.trust-list.changed`): a sequence above the one held
   * of a followed ecosystem makes a fetch; anything else is ignored.
   */
  announce(event: TrustListChangedEvent): void {
    const { ecosystemId, sequence } = event;
    if (!this.held.has(ecosystemId) && !this.fetching.has(ecosystemId)) return;
    if (sequence <= (this.held.get(ecosystemId)?.sequence ?? -1)) return;
    this.announced.set(ecosystemId, Math.max(sequence, this.announced.get(ecosystemId) ?? -1));
    this.fetch(ecosystemId).catch((error: unknown) => this.logFailure(ecosystemId, error));
  }

  /**
   * A current snapshot of the ecosystem's list: the held one before its
   * `nextUpdate`, else a fresh one. The ecosystem's refusals (404
   * ECOSYSTEM_NOT_FOUND, …) keep their status; silence, and an answer already
   * past its `nextUpdate`, are 503 DEPENDENCY_UNAVAILABLE.
   */
  async current(ecosystemId: string, options: { requestId?: string } = {}): Promise<HeldTrustList> {
    const held = this.held.get(ecosystemId);
    if (held && this.isCurrent(held)) return held;
    return this.requireCurrent(await this.fetch(ecosystemId, options.requestId));
  }

  /**
   * As `current`, for an organisation that names the ecosystem itself (a
   * direct session): the ecosystem checks it is the lead or an active member
   * (403 NOT_A_MEMBER otherwise, passed on) on every call, so this always asks;
   * the answer also refreshes the held snapshot.
   */
  async currentForMember(
    ecosystemId: string,
    orgId: string,
    options: { requestId?: string } = {},
  ): Promise<HeldTrustList> {
    const held = this.held.get(ecosystemId);
    const reply = await this.ask(
      { ecosystemId, orgId, ...(held ? { knownSequence: held.sequence } : {}) },
      options.requestId,
    );
    const kept =
      this.keep(ecosystemId, reply) ??
      this.keep(ecosystemId, await this.ask({ ecosystemId, orgId }, options.requestId));
    if (!kept) throw dependencyUnavailable('The ecosystem service answered without the trust list; try again shortly.');
    return this.requireCurrent(kept);
  }

  /** Fetches the lists of these ecosystems now (at start: those of open sessions); failures are logged, not thrown. */
  async follow(ecosystemIds: readonly string[]): Promise<void> {
    await Promise.all(
      ecosystemIds.map((id) =>
        this.fetch(id).then(
          () => undefined,
          (error: unknown) => this.logFailure(id, error),
        ),
      ),
    );
  }

  /** The ecosystems held now, with their sequences (for tests and diagnostics). */
  sequences(): Map<string, number> {
    return new Map([...this.held].map(([id, held]) => [id, held.sequence]));
  }

  private async refreshHeld(): Promise<void> {
    await this.follow([...this.held.keys()]);
  }

  /** One fetch per ecosystem at a time; callers arriving meanwhile share it. */
  private fetch(ecosystemId: string, requestId?: string): Promise<HeldTrustList> {
    const running = this.fetching.get(ecosystemId);
    if (running) return running;
    const fetched = this.fetchUntilCaughtUp(ecosystemId, requestId).finally(() => this.fetching.delete(ecosystemId));
    this.fetching.set(ecosystemId, fetched);
    return fetched;
  }

  private async fetchUntilCaughtUp(ecosystemId: string, requestId?: string): Promise<HeldTrustList> {
    let kept: HeldTrustList | undefined;
    for (let attempt = 0; attempt < CATCH_UP_ATTEMPTS; attempt++) {
      const held = this.held.get(ecosystemId);
      kept = this.keep(
        ecosystemId,
        await this.ask({ ecosystemId, ...(held ? { knownSequence: held.sequence } : {}) }, requestId),
      );
      // Entities left out for a sequence this replica does not hold: ask for the whole list.
      kept ??= this.keep(ecosystemId, await this.ask({ ecosystemId }, requestId));
      if (!kept)
        throw dependencyUnavailable('The ecosystem service answered without the trust list; try again shortly.');
      if (kept.sequence >= (this.announced.get(ecosystemId) ?? -1)) break;
    }
    return kept!;
  }

  private ask(
    request: { ecosystemId: string; knownSequence?: number; orgId?: string },
    requestId?: string,
  ): Promise<TrustListSnapshot> {
    const ask = () =>
      callService(this.deps.bus, trustListGetRpc, request, {
        timeoutMs: this.deps.timeoutMs,
        ...(requestId ? { requestId } : {}),
      });
    return this.deps.metrics ? this.deps.metrics.observeTrustListFetch(ask) : ask();
  }

  /**
   * Keeps an answer when it is not older than the held snapshot, and returns
   * the snapshot now held; undefined when the answer left the entities out
   * for a sequence this replica does not hold.
   */
  private keep(ecosystemId: string, reply: TrustListSnapshot): HeldTrustList | undefined {
    if (reply.ecosystemId !== ecosystemId)
      throw dependencyUnavailable('The ecosystem service answered with the trust list of another ecosystem.');
    const held = this.held.get(ecosystemId);
    const nextUpdate = new Date(reply.nextUpdate);
    if (held && reply.sequence < held.sequence) return held;
    if (held && reply.sequence === held.sequence) {
      // The same list, re-signed: only its nextUpdate moves (the resolved trust is kept).
      if (!(nextUpdate > held.nextUpdate)) return held;
      const renewed: HeldTrustList = { ...held, nextUpdate };
      this.held.set(ecosystemId, renewed);
      return renewed;
    }
    if (!reply.entities) return undefined;
    const snapshot = this.snapshotOf(ecosystemId, reply.sequence, nextUpdate, reply.entities);
    this.held.set(ecosystemId, snapshot);
    return snapshot;
  }

  private snapshotOf(
    ecosystemId: string,
    sequence: number,
    nextUpdate: Date,
    entities: TrustListEntity[],
  ): HeldTrustList {
    let trust: ResolvedTrustStore | undefined;
    const cache = this.deps.cache;
    return {
      ecosystemId,
      sequence,
      nextUpdate,
      entities,
      trust: () => (trust ??= resolveTrustListTrust({ ecosystemId, sequence, entities, cache })),
    };
  }

  private isCurrent(held: HeldTrustList): boolean {
    // An unparseable nextUpdate is NaN: never current.
    return this.deps.clock().getTime() < held.nextUpdate.getTime();
  }

  private requireCurrent(held: HeldTrustList): HeldTrustList {
    if (this.isCurrent(held)) return held;
    throw dependencyUnavailable(
      `The trust list of ecosystem ${held.ecosystemId} is past its nextUpdate (${Number.isNaN(held.nextUpdate.getTime()) ? 'unreadable' : held.nextUpdate.toISOString()}) and no newer one can be read; try again shortly.`,
    );
  }

  private logFailure(ecosystemId: string, error: unknown): void {
    this.deps.logger.warn({ err: error, ecosystemId }, 'trust list not refreshed');
  }
}
