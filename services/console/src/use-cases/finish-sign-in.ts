import { PENDING_SIGN_IN_MS, type PendingSignIn, type SessionLifetime } from '../domain/console-session.js';
import type { CookieSlot } from '../domain/cookie-slot.js';
import type { Clock } from '@tessera/service-kit';
import type { CookieSeal } from '../crypto/cookie-seal.js';
import type { OidcClient } from '../network/oidc-client.js';
import type { EndedSessions } from '../state/ended-sessions.js';
import { newSession, SEALED_PENDING_SIGN_IN, writeSessionCookie } from './steps/session-cookie.js';
import { sessionFromTokens } from './steps/session-from-tokens.js';

export interface FinishSignInDeps {
  oidc: Pick<OidcClient, 'finishSignIn'>;
  seal: CookieSeal;
  lifetime: SessionLifetime;
  endedSessions: Pick<EndedSessions, 'end'>;
  clock: Clock;
}

export type FinishSignInResult =
  | { ok: true; returnTo: string }
  | { ok: false; reason: 'no-pending-sign-in' }
  /** `detail`: the provider's or the check's words, for the log (never shown: they may echo request parameters). */
  | { ok: false; reason: 'refused'; detail: string };

/**
 * The provider sent the browser back: the pending sign-in is taken from its cookie
 * (cleared: once), the code exchanged with its PKCE verifier, state and nonce checked
 * (the provider takes a code once, so a copied cookie and callback are refused there);
 * a new session (a new id: never the one from before sign-in) is sealed into the
 * session cookie.
 */
export async function finishSignIn(
  deps: FinishSignInDeps,
  input: { callbackUrl: URL; pendingCookie: CookieSlot; sessionCookie: CookieSlot; replacing?: string },
): Promise<FinishSignInResult> {
  const sealed = input.pendingCookie.read();
  input.pendingCookie.clear();
  const pending = sealed ? (deps.seal.open(SEALED_PENDING_SIGN_IN, sealed) as PendingSignIn | undefined) : undefined;
  const now = deps.clock().getTime();
  if (!pending || !(now - pending.startedAt <= PENDING_SIGN_IN_MS)) return { ok: false, reason: 'no-pending-sign-in' };
  try {
    const tokens = await deps.oidc.finishSignIn(input.callbackUrl, pending);
    if (input.replacing) deps.endedSessions.end(input.replacing);
    const session = newSession(sessionFromTokens(tokens, 'oidc', deps.clock()), now);
    writeSessionCookie(deps.seal, input.sessionCookie, session, now, deps.lifetime);
    return { ok: true, returnTo: pending.returnTo };
  } catch (error) {
    const oauth = error as { message?: string; error?: string; error_description?: string };
    const detail = [oauth.message, oauth.error, oauth.error_description].filter(Boolean).join(': ');
    return { ok: false, reason: 'refused', detail };
  }
}
