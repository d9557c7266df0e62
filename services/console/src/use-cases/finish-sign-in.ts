import type { Clock } from '@tessera/service-kit';
import type { OidcClient } from '../network/oidc-client.js';
import type { PendingSignInStore, SessionStore } from '../state/console-stores.js';
import { sessionFromTokens } from './steps/session-from-tokens.js';

export interface FinishSignInDeps {
  oidc: Pick<OidcClient, 'finishSignIn'>;
  pendingSignIns: PendingSignInStore;
  sessions: SessionStore;
  clock: Clock;
}

export type FinishSignInResult =
  | { ok: true; sessionId: string; returnTo: string }
  | { ok: false; reason: 'no-pending-sign-in' }
  /** `detail`: the provider's or the check's words, for the log (never shown: they may echo request parameters). */
  | { ok: false; reason: 'refused'; detail: string };

/**
 * The provider sent the browser back: the pending sign-in is taken (once), the code
 * exchanged with its PKCE verifier, state and nonce checked; a new session (a new
 * id: never the one from before sign-in) holds the tokens.
 */
export async function finishSignIn(
  deps: FinishSignInDeps,
  input: { callbackUrl: URL; pendingId: string | undefined; replacing?: string },
): Promise<FinishSignInResult> {
  const pending = input.pendingId ? deps.pendingSignIns.take(input.pendingId) : undefined;
  if (!pending) return { ok: false, reason: 'no-pending-sign-in' };
  try {
    const tokens = await deps.oidc.finishSignIn(input.callbackUrl, pending);
    if (input.replacing) deps.sessions.delete(input.replacing);
    const sessionId = deps.sessions.create(sessionFromTokens(tokens, 'oidc', deps.clock()));
    return { ok: true, sessionId, returnTo: pending.returnTo };
  } catch (error) {
    const oauth = error as { message?: string; error?: string; error_description?: string };
    const detail = [oauth.message, oauth.error, oauth.error_description].filter(Boolean).join(': ');
    return { ok: false, reason: 'refused', detail };
  }
}
