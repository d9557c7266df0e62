import { ErrorCode, type OverAskingPath, type SessionState, type SessionStateEvent } from '@tessera/contracts';
import { isTerminalState, stateEventId } from './session-event-ids.js';
import { effectiveSessionState, type StoredSessionState } from './session-state.js';

/** What a session's state events are made of: its state and error, and when each state was reached. */
export interface SessionStateFacts extends StoredSessionState {
  id: string;
  createdAt: Date;
  /** When the wallet first fetched the request object; null when it never did. */
  requestRetrievedAt: Date | null;
  updatedAt: Date;
  /** Under the verifier's `warn` policy, what the query asks beyond its registration (every event carries it). */
  overAsking?: Array<Record<string, unknown>> | null;
}

function overAskingOf(session: SessionStateFacts): { overAsking?: OverAskingPath[] } {
  return session.overAsking ? { overAsking: session.overAsking as OverAskingPath[] } : {};
}

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
export function toSessionStateEvent(session: SessionStateFacts, now: Date): SessionStateEventOut {
  const { state, error } = effectiveSessionState(session, now);
  const changedAt = error?.code === ErrorCode.SESSION_EXPIRED ? session.expiresAt : session.updatedAt;
  return {
    eventId: stateEventId(state as SessionState),
    data: {
      id: session.id,
      state,
      ...(error ? { error } : {}),
      ...overAskingOf(session),
      changedAt: changedAt.toISOString(),
    },
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
export function toSessionStateEvents(session: SessionStateFacts, now: Date): SessionStateEventOut[] {
  const current = toSessionStateEvent(session, now);
  const history: SessionStateEventOut[] = [];
  const passed = (state: SessionState, changedAt: Date) => ({
    eventId: stateEventId(state),
    data: { id: session.id, state, ...overAskingOf(session), changedAt: changedAt.toISOString() },
    terminal: false,
  });
  if (current.eventId > stateEventId('RequestCreated')) history.push(passed('RequestCreated', session.createdAt));
  if (current.eventId > stateEventId('RequestUriRetrieved') && session.requestRetrievedAt)
    history.push(passed('RequestUriRetrieved', session.requestRetrievedAt));
  return [...history, current];
}
