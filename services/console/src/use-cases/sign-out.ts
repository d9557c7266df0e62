import type { CookieSlot } from '../domain/cookie-slot.js';
import type { CookieSeal } from '../crypto/cookie-seal.js';
import type { OidcClient } from '../network/oidc-client.js';
import type { EndedSessions } from '../state/ended-sessions.js';
import { openSessionCookie } from './steps/session-cookie.js';

export interface SignOutDeps {
  seal: CookieSeal;
  endedSessions: Pick<EndedSessions, 'end'>;
  oidc?: Pick<OidcClient, 'endSessionUrl' | 'revokeRefreshToken'>;
}

/**
 * Ends the console's session, and returns where the browser goes next: the provider's
 * logout, when it has one. The cookie is cleared; this replica refuses the session from
 * now on; the refresh token is revoked at the provider, so no replica can renew the
 * session again (a copy of the cookie taken before sign-out works elsewhere only until
 * its access token expires).
 */
export async function signOut(
  deps: SignOutDeps,
  input: { sessionCookie: CookieSlot; signedOutUrl: string },
): Promise<{ redirectTo: string }> {
  const session = openSessionCookie(deps.seal, input.sessionCookie);
  input.sessionCookie.clear();
  if (!session) return { redirectTo: input.signedOutUrl };
  deps.endedSessions.end(session.id);
  if (session.method === 'oidc' && deps.oidc) {
    if (session.tokens.refreshToken) await deps.oidc.revokeRefreshToken(session.tokens.refreshToken);
    const url = await deps.oidc.endSessionUrl(session.tokens.idToken, input.signedOutUrl);
    if (url) return { redirectTo: url };
  }
  return { redirectTo: input.signedOutUrl };
}
