import {
  SESSION_TOUCH_INTERVAL_MS,
  sessionIsLive,
  tokensNeedRenewal,
  type ConsoleSession,
  type SessionHandle,
  type SessionLifetime,
} from '../domain/console-session.js';
import type { CookieSlot } from '../domain/cookie-slot.js';
import type { Clock } from '@tessera/service-kit';
import type { CookieSeal } from '../crypto/cookie-seal.js';
import type { OidcClient } from '../network/oidc-client.js';
import type { EndedSessions } from '../state/ended-sessions.js';
import type { SessionRenewals } from '../state/session-renewals.js';
import type { MintDevelopmentToken } from './sign-in-for-development.js';
import { openSessionHandle } from './steps/open-session-handle.js';
import { openSessionCookie, writeSessionCookie } from './steps/session-cookie.js';
import { sessionFromTokens, sessionOfSealed, type SessionGrant } from './steps/session-from-tokens.js';

export interface ResumeSessionDeps {
  seal: CookieSeal;
  lifetime: SessionLifetime;
  endedSessions: Pick<EndedSessions, 'has'>;
  renewals: SessionRenewals<SessionGrant>;
  clock: Clock;
  /** Renews provider tokens (absent: no provider configured). */
  oidc?: Pick<OidcClient, 'refresh'>;
  /** Mints a fresh development token (development mode only). */
  mintDevelopmentToken?: MintDevelopmentToken;
}

/**
 * The session a request's cookie holds, with an access token that is good for the next
 * calls. The cookie must open under the console's key, within the idle and maximum
 * lifetimes its sealed times give, and not be one this replica signed out. A token
 * about to expire is renewed (refresh token grant; a development session's is minted
 * again) and the session sealed again into the answer's cookie; so is a session whose
 * last use moved by a minute. A session that cannot be renewed ends.
 */
export async function resumeSession(
  deps: ResumeSessionDeps,
  input: { sessionCookie: CookieSlot; flashCookie: CookieSlot },
): Promise<SessionHandle | undefined> {
  if (!input.sessionCookie.read()) return undefined;
  const sealed = openSessionCookie(deps.seal, input.sessionCookie);
  const now = deps.clock().getTime();
  if (!sealed || !sessionIsLive(sealed, now, deps.lifetime) || deps.endedSessions.has(sealed.id)) {
    input.sessionCookie.clear();
    return undefined;
  }
  let session = sessionOfSealed(sealed);
  let changed = now - session.lastUsedAt >= SESSION_TOUCH_INTERVAL_MS;
  if (tokensNeedRenewal(session.tokens, now)) {
    const current = session;
    const renewed = await deps.renewals.renew(`${current.id}:${current.tokens.expiresAt}`, () => renew(deps, current));
    if (!renewed) {
      input.sessionCookie.clear();
      return undefined;
    }
    session = { ...session, ...renewed };
    changed = true;
  }
  if (changed) {
    session = { ...session, lastUsedAt: now };
    writeSessionCookie(deps.seal, input.sessionCookie, session, now, deps.lifetime);
  }
  return openSessionHandle(session, { seal: deps.seal, clock: deps.clock, flashCookie: input.flashCookie });
}

async function renew(deps: ResumeSessionDeps, session: ConsoleSession): Promise<SessionGrant | undefined> {
  try {
    if (session.method === 'development' && session.developmentClaims && deps.mintDevelopmentToken) {
      const accessToken = await deps.mintDevelopmentToken(session.developmentClaims);
      return sessionFromTokens({ accessToken }, 'development', deps.clock(), session.developmentClaims);
    }
    if (session.method === 'oidc' && session.tokens.refreshToken && deps.oidc) {
      const tokens = await deps.oidc.refresh(session.tokens.refreshToken);
      const idToken = tokens.idToken ?? session.tokens.idToken;
      return sessionFromTokens(
        {
          ...tokens,
          // A provider may answer a refresh without a new refresh or ID token: the old ones stay.
          refreshToken: tokens.refreshToken ?? session.tokens.refreshToken,
          ...(idToken ? { idToken } : {}),
        },
        'oidc',
        deps.clock(),
      );
    }
    return undefined;
  } catch {
    return undefined;
  }
}
