import { ErrorCode } from '@tessera/contracts';
import type { SessionRow } from '../../db/schema.js';
import { effectiveSessionState, isOpenState } from '../../domain/session-state.js';
import { persistSessionExpiry, type PersistSessionExpiryDeps } from './persist-session-expiry.js';

// Shared step of the wallet-facing use cases (request fetch, wallet response, DC API response).

export type CheckSessionOpenResult = { open: true } | { open: false; expired: boolean };

/**
 * Whether the session still waits for an answer at `now`. One past `expiresAt`
 * is persisted as expired here (publishing the change once), so readers agree.
 */
export async function checkSessionOpen(
  deps: PersistSessionExpiryDeps,
  input: { session: SessionRow; now: Date; requestId?: string },
): Promise<CheckSessionOpenResult> {
  const { session, now } = input;
  const { state, error } = effectiveSessionState(session, now);
  if (isOpenState(state)) return { open: true };
  if (session.state !== 'Error' && state === 'Error')
    await persistSessionExpiry(deps, { id: session.id, now, requestId: input.requestId });
  return { open: false, expired: error?.code === ErrorCode.SESSION_EXPIRED };
}
