import { ErrorCode, type SessionState } from '@tessera/contracts';
import { sessionErrorMessage } from './session-errors.js';

/** States in which a session still waits for the wallet: these count for `_IN_USE` conflicts. */
export const OPEN_STATES = ['RequestCreated', 'RequestUriRetrieved'] as const satisfies readonly SessionState[];

export function isOpenState(state: string): boolean {
  return (OPEN_STATES as readonly string[]).includes(state);
}

export interface StoredSessionState {
  state: string;
  expiresAt: Date;
  errorCode: string | null;
  /** What the code is about (credential query id, registered wallet error): the message is made of both. */
  errorSubject: string | null;
}

export interface EffectiveSessionState {
  state: SessionState;
  error?: { code: string; message: string };
}

export const SESSION_EXPIRED_MESSAGE = sessionErrorMessage(ErrorCode.SESSION_EXPIRED);

/**
 * The state a reader sees at `now`: an open session past `expiresAt` reads
 * `Error` with SESSION_EXPIRED even before the expiry is persisted.
 */
export function effectiveSessionState(stored: StoredSessionState, now: Date): EffectiveSessionState {
  if (isOpenState(stored.state) && stored.expiresAt.getTime() <= now.getTime()) {
    return { state: 'Error', error: { code: ErrorCode.SESSION_EXPIRED, message: SESSION_EXPIRED_MESSAGE } };
  }
  const state = stored.state as SessionState;
  if (state === 'Error')
    return {
      state,
      // Made from the code and its subject, never from a stored sentence (rows of earlier versions held engine and parser messages).
      error: {
        code: stored.errorCode ?? ErrorCode.INTERNAL,
        message: sessionErrorMessage(stored.errorCode ?? ErrorCode.INTERNAL, stored.errorSubject),
      },
    };
  return { state };
}
