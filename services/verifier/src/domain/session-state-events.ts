import { ErrorCode, type SessionState, type SessionStateEvent } from '@tessera/contracts';
import type { SessionStateRow } from '../db/session-states.js';
import { isTerminalState, stateEventId } from './session-event-ids.js';
import { effectiveSessionState } from './session-state.js';

/** A `state` event: its SSE id, its data, and whether the stream ends after it. */
export interface SessionStateEventOut {
  eventId: number;
  data: SessionStateEvent;
  terminal: boolean;
}

/**
 * The session's state at `now` as a `state` event. `changedAt` is when the state
 * changed: `updatedAt`, or for an expired session its `expiresAt` — the same value
 * whether a reader saw the expiry before or after it was persisted.
 */
export function toSessionStateEvent(row: SessionStateRow, now: Date): SessionStateEventOut {
  const { state, error } = effectiveSessionState(row, now);
  const changedAt = error?.code === ErrorCode.SESSION_EXPIRED ? row.expiresAt : row.updatedAt;
  return {
    eventId: stateEventId(state as SessionState),
    data: { id: row.id, state, ...(error ? { error } : {}), changedAt: changedAt.toISOString() },
    terminal: isTerminalState(state),
  };
}

/**
 * Every state the session has been in, oldest first, each as the event of its
 * change; the last is `toSessionStateEvent`'s. The row keeps when each was reached
 * (`createdAt`, `requestRetrievedAt`), so a stream that reads the session only after
 * two quick changes, or a client resuming from an older Last-Event-ID, still sends
 * each change. A session that skipped `RequestUriRetrieved` (DC API, expired unfetched)
 * has no such event.
 */
export function toSessionStateEvents(row: SessionStateRow, now: Date): SessionStateEventOut[] {
  const current = toSessionStateEvent(row, now);
  const history: SessionStateEventOut[] = [];
  const passed = (state: SessionState, changedAt: Date) => ({
    eventId: stateEventId(state),
    data: { id: row.id, state, changedAt: changedAt.toISOString() },
    terminal: false,
  });
  if (current.eventId > stateEventId('RequestCreated')) history.push(passed('RequestCreated', row.createdAt));
  if (current.eventId > stateEventId('RequestUriRetrieved') && row.requestRetrievedAt)
    history.push(passed('RequestUriRetrieved', row.requestRetrievedAt));
  return [...history, current];
}
