import { tokensNeedRenewal, type ConsoleSession, type SessionHandle } from '../domain/console-session.js';
import type { Clock } from '@tessera/service-kit';
import type { OidcClient } from '../network/oidc-client.js';
import type { SessionStore } from '../state/console-stores.js';
import type { MintDevelopmentToken } from './sign-in-for-development.js';
import { openSessionHandle } from './steps/open-session-handle.js';
import { sessionFromTokens } from './steps/session-from-tokens.js';

export interface ResumeSessionDeps {
  sessions: SessionStore;
  clock: Clock;
  /** Renews provider tokens (absent: no provider configured). */
  oidc?: Pick<OidcClient, 'refresh'>;
  /** Mints a fresh development token (development mode only). */
  mintDevelopmentToken?: MintDevelopmentToken;
}

/** Renewals under way, per session: two requests at once renew once (a refresh token may be single-use). */
const renewing = new WeakMap<ConsoleSession, Promise<boolean>>();

/**
 * The session a request's cookie names, with an access token that is good for the
 * next calls: renewed with the refresh token (or, for a development sign-in, minted
 * again) when it is about to expire. A session that cannot be renewed ends.
 */
export async function resumeSession(
  deps: ResumeSessionDeps,
  input: { sessionId: string | undefined },
): Promise<SessionHandle | undefined> {
  if (!input.sessionId) return undefined;
  const session = deps.sessions.get(input.sessionId);
  if (!session) return undefined;
  if (tokensNeedRenewal(session.tokens, deps.clock().getTime())) {
    let renewal = renewing.get(session);
    if (!renewal) {
      renewal = renew(deps, session).finally(() => renewing.delete(session));
      renewing.set(session, renewal);
    }
    if (!(await renewal)) {
      deps.sessions.delete(input.sessionId);
      return undefined;
    }
  }
  return openSessionHandle(input.sessionId, session);
}

async function renew(deps: ResumeSessionDeps, session: ConsoleSession): Promise<boolean> {
  try {
    let renewed: ConsoleSession | undefined;
    if (session.method === 'development' && session.developmentClaims && deps.mintDevelopmentToken) {
      const accessToken = await deps.mintDevelopmentToken(session.developmentClaims);
      renewed = sessionFromTokens({ accessToken }, 'development', deps.clock(), session.developmentClaims);
    } else if (session.method === 'oidc' && session.tokens.refreshToken && deps.oidc) {
      const tokens = await deps.oidc.refresh(session.tokens.refreshToken);
      renewed = sessionFromTokens(
        {
          ...tokens,
          // A provider may answer a refresh without a new refresh or ID token: the old ones stay.
          refreshToken: tokens.refreshToken ?? session.tokens.refreshToken,
          ...((tokens.idToken ?? session.tokens.idToken) ? { idToken: tokens.idToken ?? session.tokens.idToken } : {}),
        },
        'oidc',
        deps.clock(),
      );
    }
    if (!renewed) return false;
    // In place: handles and the store share this object.
    session.user = renewed.user;
    session.tokens = renewed.tokens;
    return true;
  } catch {
    return false;
  }
}
