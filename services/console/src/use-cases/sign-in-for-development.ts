import type { DevelopmentClaims, SessionLifetime } from '../domain/console-session.js';
import type { CookieSlot } from '../domain/cookie-slot.js';
import type { Clock } from '@tessera/service-kit';
import type { CookieSeal } from '../crypto/cookie-seal.js';
import type { EndedSessions } from '../state/ended-sessions.js';
import { newSession, writeSessionCookie } from './steps/session-cookie.js';
import { sessionFromTokens } from './steps/session-from-tokens.js';

/** Signs an access token with the development key (`npm run token` does the same). */
export type MintDevelopmentToken = (claims: DevelopmentClaims) => Promise<string>;

export interface SignInForDevelopmentDeps {
  seal: CookieSeal;
  lifetime: SessionLifetime;
  endedSessions: Pick<EndedSessions, 'end'>;
  clock: Clock;
  mintDevelopmentToken: MintDevelopmentToken;
}

/**
 * Development mode only (the route exists only then): a session whose tokens the
 * console mints with the development key the services trust in development, for
 * whoever the person says they are, sealed into the session cookie.
 */
export async function signInForDevelopment(
  deps: SignInForDevelopmentDeps,
  input: { claims: DevelopmentClaims; sessionCookie: CookieSlot; replacing?: string },
): Promise<void> {
  const accessToken = await deps.mintDevelopmentToken(input.claims);
  if (input.replacing) deps.endedSessions.end(input.replacing);
  const now = deps.clock().getTime();
  const session = newSession(sessionFromTokens({ accessToken }, 'development', deps.clock(), input.claims), now);
  writeSessionCookie(deps.seal, input.sessionCookie, session, now, deps.lifetime);
}
