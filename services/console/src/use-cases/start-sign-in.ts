import { safeReturnPath, type PendingSignIn } from '../domain/console-session.js';
import type { CookieSlot } from '../domain/cookie-slot.js';
import type { Clock } from '@tessera/service-kit';
import type { CookieSeal } from '../crypto/cookie-seal.js';
import type { OidcClient } from '../network/oidc-client.js';
import { SEALED_PENDING_SIGN_IN } from './steps/session-cookie.js';

export interface StartSignInDeps {
  oidc: Pick<OidcClient, 'startSignIn'>;
  seal: CookieSeal;
  clock: Clock;
}

export type StartSignInResult = { ok: true; authorizationUrl: string } | { ok: false; reason: 'provider-unavailable' };

/**
 * Sends the browser to the provider. State, nonce and the PKCE verifier wait in the
 * browser's sign-in cookie, sealed (it cannot read them), for whichever replica the
 * provider's redirect reaches.
 */
export async function startSignIn(
  deps: StartSignInDeps,
  input: { returnTo: unknown; pendingCookie: CookieSlot },
): Promise<StartSignInResult> {
  try {
    const { authorizationUrl, pending } = await deps.oidc.startSignIn();
    const sealed: PendingSignIn = {
      ...pending,
      returnTo: safeReturnPath(input.returnTo),
      startedAt: deps.clock().getTime(),
    };
    input.pendingCookie.write(deps.seal.seal(SEALED_PENDING_SIGN_IN, sealed), 600);
    return { ok: true, authorizationUrl };
  } catch {
    return { ok: false, reason: 'provider-unavailable' };
  }
}
