import type { Clock, Logger } from '@tessera/service-kit';
import { findSessionState, findSessionStates, type SessionStateRow } from '../db/session-states.js';
import type { VerifierDb } from '../db/types.js';
import { isOpenState } from '../domain/session-state.js';

// The sessions this replica's event streams follow, one per app (made by `buildApp`).
// A state change is made by whichever replica received the wallet's answer; each
// replica hears of it through ONE plain NATS subscription to `verifier.v1.session.updated`
// (bus/session-updated-subscriber.ts, no queue group) and fans it out here (`changed`), in memory,
// to the streams of that session. The event is only a hint: the hub re-reads the
// session's row, so a stream sends the state as committed, never a payload's guess.
// Core NATS may drop an event (a reconnect); every `resyncMs` the hub re-reads all the
// sessions it follows in one query, so a dropped event is seen within that interval.
// Nobody has to touch a session for its expiry to be seen: while a stream follows an
// open session, a timer at its `expiresAt` persists the expiry through `persistExpiry`
// (the use cases' step, wired by `buildApp`; it publishes the event to every replica)
// and re-reads it.
//
// Followers are keyed by (organisation, session id): a stream is admitted for one
// organisation's session, and a request naming the same id under another organisation
// (which its own read answers 404) follows an entry of its own that nothing ever
// announces — it can never attach to, re-key or end the owner's entry (issue 28, item 6).
//
// Invariants: an entry exists exactly while it has a follower; its timer exists only
// while it is open; the per-organisation count equals the admitted, unreleased streams.

/** Receives the session's state as read after each change (or resync); called again with the same state is harmless. */
export type StateListener = (row: SessionStateRow) => void;

/**
 * What the follow use case asks of the replica's hub (`follow-session-events.ts`):
 * a stream slot of the organisation, the session's states after each change, and
 * the timer that persists its expiry.
 */
export interface SessionStreams {
  admit(orgId: string): (() => void) | undefined;
  follow(session: SessionKey, listener: StateListener): () => void;
  watchExpiry(session: SessionKey, expiresAt: Date): void;
}

/** A session as the hub knows it: its organisation and id, together. */
export interface SessionKey {
  orgId: string;
  id: string;
}

export interface SessionEventHubOptions {
  db: VerifierDb;
  clock: Clock;
  /**
   * Persists the expiry of an open session past `expiresAt` (conditional: the replica
   * that wins publishes the change; the others change nothing).
   */
  persistExpiry(session: { id: string; orgId: string }, now: Date): Promise<unknown>;
  logger: Logger;
  /** Streams one organisation may hold open on this replica. */
  maxStreamsPerOrg: number;
  /** How often every followed session is re-read. */
  resyncMs: number;
}

interface FollowedSession {
  orgId: string;
  id: string;
  listeners: Set<StateListener>;
  expiryTimer?: NodeJS.Timeout;
  /** A read in flight, and whether another change came during it (read again after). */
  reading?: Promise<void>;
  again: boolean;
}

/** setTimeout's largest delay; a later expiry is re-armed when this one fires. */
const MAX_TIMER_MS = 2_147_483_647;
/** Timers may fire a little early by the clock: the expiry timer fires this much after `expiresAt`. */
const EXPIRY_MARGIN_MS = 20;
/** Ids per resync query. */
const RESYNC_CHUNK = 1000;

/** The map key of a session: organisation ids and UUIDs hold no NUL. */
const keyOf = (session: SessionKey) => `${session.orgId}\u0000${session.id}`;

export class SessionEventHub implements SessionStreams {
  private readonly sessions = new Map<string, FollowedSession>();
  private readonly streamsPerOrg = new Map<string, number>();
  private resyncing = false;

  constructor(private readonly options: SessionEventHubOptions) {}

  /** Starts the periodic resync; returns what stops it. */
  start(): () => void {
    const timer = setInterval(() => void this.resync(), this.options.resyncMs);
    timer.unref();
    return () => clearInterval(timer);
  }

  /**
   * Takes one of the organisation's stream slots: the release function (idempotent),
   * or undefined when the organisation already holds `maxStreamsPerOrg` streams here.
   */
  admit(orgId: string): (() => void) | undefined {
    const held = this.streamsPerOrg.get(orgId) ?? 0;
    if (held >= this.options.maxStreamsPerOrg) return undefined;
    this.streamsPerOrg.set(orgId, held + 1);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const left = (this.streamsPerOrg.get(orgId) ?? 1) - 1;
      if (left > 0) this.streamsPerOrg.set(orgId, left);
      else this.streamsPerOrg.delete(orgId);
    };
  }

  /** Delivers the session's state to `listener` after each change; returns the unfollow function (idempotent). */
  follow(session: SessionKey, listener: StateListener): () => void {
    const key = keyOf(session);
    let entry = this.sessions.get(key);
    if (!entry) {
      entry = { orgId: session.orgId, id: session.id, listeners: new Set(), again: false };
      this.sessions.set(key, entry);
    }
    entry.listeners.add(listener);
    const followed = entry;
    return () => {
      followed.listeners.delete(listener);
      if (followed.listeners.size > 0 || this.sessions.get(key) !== followed) return;
      if (followed.expiryTimer) clearTimeout(followed.expiryTimer);
      this.sessions.delete(key);
    };
  }

  /** Arms the expiry timer of a followed open session (once; a later call for the same session is a no-op). */
  watchExpiry(session: SessionKey, expiresAt: Date): void {
    const entry = this.sessions.get(keyOf(session));
    if (!entry || entry.expiryTimer) return;
    const delay = Math.min(
      MAX_TIMER_MS,
      Math.max(0, expiresAt.getTime() - this.options.clock().getTime()) + EXPIRY_MARGIN_MS,
    );
    entry.expiryTimer = setTimeout(() => {
      entry.expiryTimer = undefined;
      void this.expire(entry, expiresAt);
    }, delay);
    entry.expiryTimer.unref();
  }

  /** A session changed (its event arrived): re-reads it once for all its followers here. */
  async changed(session: SessionKey): Promise<void> {
    const entry = this.sessions.get(keyOf(session));
    if (!entry) return;
    const { id } = entry;
    if (entry.reading) {
      entry.again = true;
      return entry.reading;
    }
    entry.reading = (async () => {
      do {
        entry.again = false;
        try {
          const row = await findSessionState(this.options.db, { orgId: entry.orgId, id });
          if (row) this.deliver(id, entry, row);
        } catch (error) {
          // The resync reads it again; a stream never ends because one read failed.
          this.options.logger.warn({ err: error, sessionId: id }, 'session state not re-read after its event');
        }
      } while (entry.again);
    })().finally(() => (entry.reading = undefined));
    return entry.reading;
  }

  /** What the hub holds (tests check that closed streams leave nothing behind). */
  stats(): { sessions: number; listeners: number; expiryTimers: number; streamsPerOrg: Record<string, number> } {
    let listeners = 0;
    let expiryTimers = 0;
    for (const entry of this.sessions.values()) {
      listeners += entry.listeners.size;
      if (entry.expiryTimer) expiryTimers += 1;
    }
    return {
      sessions: this.sessions.size,
      listeners,
      expiryTimers,
      streamsPerOrg: Object.fromEntries(this.streamsPerOrg),
    };
  }

  private deliver(id: string, entry: FollowedSession, row: SessionStateRow): void {
    if (!isOpenState(row.state) && entry.expiryTimer) {
      clearTimeout(entry.expiryTimer);
      entry.expiryTimer = undefined;
    }
    for (const listener of [...entry.listeners]) {
      try {
        listener(row);
      } catch (error) {
        this.options.logger.error({ err: error, sessionId: id }, 'a session event listener failed');
      }
    }
  }

  private async expire(entry: FollowedSession, expiresAt: Date): Promise<void> {
    if (this.sessions.get(keyOf(entry)) !== entry) return;
    const { id } = entry;
    const now = this.options.clock();
    if (now.getTime() < expiresAt.getTime()) {
      // Fired before the expiry (a delay capped at the timer's maximum): wait again.
      this.watchExpiry(entry, expiresAt);
      return;
    }
    try {
      // Conditional: the replica that wins publishes the event; the others change nothing.
      await this.options.persistExpiry({ id, orgId: entry.orgId }, now);
    } catch (error) {
      this.options.logger.warn({ err: error, sessionId: id }, 'session expiry not persisted by its timer');
    }
    // Read at once rather than waiting for the event: the expiry reads as such even unpersisted.
    await this.changed(entry);
  }

  private async resync(): Promise<void> {
    if (this.resyncing || this.sessions.size === 0) return;
    this.resyncing = true;
    try {
      const ids = [...new Set([...this.sessions.values()].map((entry) => entry.id))];
      for (let start = 0; start < ids.length; start += RESYNC_CHUNK) {
        const rows = await findSessionStates(this.options.db, { ids: ids.slice(start, start + RESYNC_CHUNK) });
        for (const row of rows) {
          // Only the entry of the organisation the row belongs to: a foreign follower of the same id gets nothing.
          const entry = this.sessions.get(keyOf(row));
          if (entry) this.deliver(row.id, entry, row);
        }
      }
    } catch (error) {
      this.options.logger.warn({ err: error }, 'session event resync failed');
    } finally {
      this.resyncing = false;
    }
  }
}
