import type { SessionState } from '@tessera/contracts';

// Event ids of a session's state events (`GET verifier-presentation-events`).
// A session's state only moves forward — RequestCreated → RequestUriRetrieved →
// ResponseVerified | Error (a DC API session, or one that expires unfetched, skips
// the middle) — so the state's rank is an event id that increases with every change
// and is the same on every replica and every reconnection: no counter to keep, and a
// client's Last-Event-ID says exactly which state it has.

const EVENT_ID_OF_STATE: Record<SessionState, number> = {
  RequestCreated: 1,
  RequestUriRetrieved: 2,
  ResponseVerified: 3,
  Error: 3,
};

/** The event id of a state: 1, 2, or 3 for the terminal states. */
export function stateEventId(state: SessionState): number {
  return EVENT_ID_OF_STATE[state];
}

/** After a terminal state nothing follows: the stream ends. */
export function isTerminalState(state: SessionState): boolean {
  return state === 'ResponseVerified' || state === 'Error';
}

/**
 * The event id a reconnecting client last received (the `Last-Event-ID` header), or
 * undefined when absent or not one of ours (then the client gets the current state,
 * as a new client does: a value we never sent cannot say what the client has).
 */
export function parseLastEventId(header: string | undefined): number | undefined {
  if (header === undefined) return undefined;
  const trimmed = header.trim();
  return /^[123]$/.test(trimmed) ? Number(trimmed) : undefined;
}
