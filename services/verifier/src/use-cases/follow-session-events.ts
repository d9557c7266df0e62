import { type Clock, isUuid } from '@tessera/service-kit';
import { findSessionState } from '../db/session-states.js';
import { presentationSessionNotFound, RetryLaterError } from '../domain/errors.js';
import { isOpenState } from '../domain/session-state.js';
import { toSessionStateEvents, type SessionStateEventOut } from '../domain/session-state-events.js';
import type { SessionStreams } from '../state/session-event-hub.js';
import { persistSessionExpiry, type PersistSessionExpiryDeps } from './steps/persist-session-expiry.js';

export interface FollowSessionEventsDeps extends PersistSessionExpiryDeps {
  clock: Clock;
  /** The replica's session event hub. */
  hub: SessionStreams;
}

export interface FollowSessionEventsInput {
  orgId: string;
  id: string;
  /** The event id the client last received (Last-Event-ID), parsed. */
  lastEventId?: number;
  requestId?: string;
}

/** A followed session: `start` delivers its states newer than the client has; `stop` frees everything (idempotent). */
export interface SessionEventFollower {
  /**
   * Sends, through `sink`, what the client lacks at once — the current state for a new
   * client, every state after its Last-Event-ID for a resuming one — then each later
   * state once, in order (a state passed between two reads included); after a terminal
   * state nothing follows and the follower has stopped itself.
   */
  start(sink: (event: SessionStateEventOut) => void): void;
  stop(): void;
}

/** The client already has the session's terminal state: nothing will ever follow (the route answers 204). */
export type FollowSessionEventsResult = { kind: 'follow'; follower: SessionEventFollower } | { kind: 'up-to-date' };

/** Retry-After of a refused stream: slots free as sessions end and clients leave, not on a schedule. */
export const STREAM_LIMIT_RETRY_AFTER_SECONDS = 5;

/**
 * `GET verifier-presentation-events`: follows one of the organisation's sessions.
 * The follower is registered with the replica's hub BEFORE the session is read, so a
 * change committed between the read and the registration cannot be missed: it is
 * either in what was read or announced to the follower afterwards. Each read yields
 * the session's whole history (its row keeps when each state was reached), so
 * changes that follow each other faster than the reads are each sent. Expiry is
 * persisted first (as `GET verifier-presentation` does). An unknown, another
 * organisation's or malformed id is 404; over the organisation's stream limit 429.
 */
export async function followSessionEvents(
  deps: FollowSessionEventsDeps,
  input: FollowSessionEventsInput,
): Promise<FollowSessionEventsResult> {
  const { orgId, id } = input;
  if (!isUuid(id)) throw presentationSessionNotFound();
  const release = deps.hub.admit(orgId);
  if (!release)
    throw new RetryLaterError(
      'The organisation has as many session event streams open as it may; close one or try again shortly.',
      STREAM_LIMIT_RETRY_AFTER_SECONDS,
    );

  // The id of the newest state the client has: Last-Event-ID, or (set after the read) the state before the current one.
  let lastSent = input.lastEventId ?? 0;
  let sink: ((event: SessionStateEventOut) => void) | undefined;
  // The session's states as last read, newest last; a read announced before `start` is kept here.
  let latest: SessionStateEventOut[] = [];
  let stopped = false;
  const emit = (events: SessionStateEventOut[]) => {
    for (const event of events) {
      if (stopped || !sink || event.eventId <= lastSent) continue;
      lastSent = event.eventId;
      sink(event);
      if (event.terminal) stop();
    }
  };
  const newestOf = (events: SessionStateEventOut[]) => events.at(-1)?.eventId ?? 0;
  const unfollow = deps.hub.follow({ id, orgId }, (row) => {
    const events = toSessionStateEvents(row, deps.clock());
    if (newestOf(events) < newestOf(latest)) return;
    latest = events;
    emit(events);
  });
  function stop() {
    if (stopped) return;
    stopped = true;
    unfollow();
    release!();
  }

  try {
    const now = deps.clock();
    await persistSessionExpiry(deps, { orgId, id, now, requestId: input.requestId });
    const row = await findSessionState(deps.db, { orgId, id });
    if (!row) throw presentationSessionNotFound();
    const read = toSessionStateEvents(row, now);
    // A new client starts at the state read now; one that resumes gets every state after its Last-Event-ID.
    if (input.lastEventId === undefined) lastSent = newestOf(read) - 1;
    if (newestOf(read) >= newestOf(latest)) latest = read;
    const terminal = latest.at(-1)!.terminal;
    if (terminal && newestOf(latest) <= lastSent) {
      stop();
      return { kind: 'up-to-date' };
    }
    if (isOpenState(row.state)) deps.hub.watchExpiry({ orgId, id }, row.expiresAt);
    return {
      kind: 'follow',
      follower: {
        start(given) {
          if (stopped || sink) return;
          sink = given;
          emit(latest);
        },
        stop,
      },
    };
  } catch (error) {
    stop();
    throw error;
  }
}
