import type { OidcClient } from '../network/oidc-client.js';
import type { SessionStore } from '../state/console-stores.js';

export interface SignOutDeps {
  sessions: SessionStore;
  oidc?: Pick<OidcClient, 'endSessionUrl'>;
}

/** Ends the console's session, and returns where the browser goes next: the provider's logout, when it has one. */
export async function signOut(
  deps: SignOutDeps,
  input: { sessionId: string | undefined; signedOutUrl: string },
): Promise<{ redirectTo: string }> {
  const session = input.sessionId ? deps.sessions.take(input.sessionId) : undefined;
  if (session?.method === 'oidc' && deps.oidc) {
    const url = await deps.oidc.endSessionUrl(session.tokens.idToken, input.signedOutUrl);
    if (url) return { redirectTo: url };
  }
  return { redirectTo: input.signedOutUrl };
}
