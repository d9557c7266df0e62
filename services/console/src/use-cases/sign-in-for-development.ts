import type { DevelopmentClaims } from '../domain/console-session.js';
import type { Clock } from '@tessera/service-kit';
import type { SessionStore } from '../state/console-stores.js';
import { sessionFromTokens } from './steps/session-from-tokens.js';

/** Signs an access token with the development key (`npm run token` does the same). */
export type MintDevelopmentToken = (claims: DevelopmentClaims) => Promise<string>;

export interface SignInForDevelopmentDeps {
  sessions: SessionStore;
  clock: Clock;
  mintDevelopmentToken: MintDevelopmentToken;
}

/**
 * Development mode only (the route exists only then): a session whose tokens the
 * console mints with the development key the services trust in development, for
 * whoever the person says they are. Returns the new session's id.
 */
export async function signInForDevelopment(
  deps: SignInForDevelopmentDeps,
  input: { claims: DevelopmentClaims; replacing?: string },
): Promise<{ sessionId: string }> {
  const accessToken = await deps.mintDevelopmentToken(input.claims);
  if (input.replacing) deps.sessions.delete(input.replacing);
  const sessionId = deps.sessions.create(sessionFromTokens({ accessToken }, 'development', deps.clock(), input.claims));
  return { sessionId };
}
