import { ErrorCode, type SessionState } from '@tessera/contracts';

/** States in which a session still waits for the wallet: these count for `_IN_USE` conflicts. */
export const OPEN_STATES = ['RequestCreated', 'RequestUriRetrieved'] as const satisfies readonly SessionState[];

export function isOpenState(state: string): boolean {
  return (OPEN_STATES as readonly string[]).includes(state);
}

export interface StoredSessionState {
  state: string;
  expiresAt: Date;
  errorCode: string | null;
  errorMessage: string | null;
}

export interface EffectiveSessionState {
  state: SessionState;
  error?: { code: string; message: string };
}

export const SESSION_EXPIRED_MESSAGE = 'The session expired before the wallet answered; start a new one.';

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
      error: { code: stored.errorCode ?? ErrorCode.INTERNAL, message: stored.errorMessage ?? 'The session failed.' },
    };
  return { state };
}
