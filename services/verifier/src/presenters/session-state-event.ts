import { ErrorCode, type SessionState, type SessionStateEvent } from '@tessera/contracts';
import type { SessionStateRow } from '../db/session-states.js';
import { isTerminalState, stateEventId } from '../domain/session-event-ids.js';
import { effectiveSessionState } from '../domain/session-state.js';

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
