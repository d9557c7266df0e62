import { decodeJwt } from 'jose';
import type { ConsoleSession, DevelopmentClaims, SealedSession, SignInMethod } from '../../domain/console-session.js';
import { accessTokenExpiry, userOfAccessToken } from '../../domain/signed-in-user.js';
import type { OidcTokens } from '../../network/oidc-client.js';

/** What a grant (or the development key) gives a session: who, the tokens, how. */
export type SessionGrant = Pick<ConsoleSession, 'user' | 'tokens' | 'method' | 'developmentClaims'>;

/** A session's grant (or its renewal) from the tokens a grant or the development key gave. */
export function sessionFromTokens(
  tokens: OidcTokens,
  method: SignInMethod,
  now: Date,
  developmentClaims?: DevelopmentClaims,
): SessionGrant {
  const expiresAt = accessTokenExpiry(tokens.accessToken) ?? now.getTime() + (tokens.expiresIn ?? 300) * 1000;
  return {
    user: userOfAccessToken(tokens.accessToken, idTokenClaimsOf(tokens.idToken)),
    tokens: {
      accessToken: tokens.accessToken,
      ...(tokens.refreshToken ? { refreshToken: tokens.refreshToken } : {}),
      ...(tokens.idToken ? { idToken: tokens.idToken } : {}),
      expiresAt,
    },
    method,
    ...(developmentClaims ? { developmentClaims } : {}),
  };
}

/** The session an opened cookie holds: the user read again from its tokens. */
export function sessionOfSealed(sealed: SealedSession): ConsoleSession {
  return { ...sealed, user: userOfAccessToken(sealed.tokens.accessToken, idTokenClaimsOf(sealed.tokens.idToken)) };
}

function idTokenClaimsOf(idToken: string | undefined): Record<string, unknown> {
  return idToken ? (decodeJwt(idToken) as Record<string, unknown>) : {};
}
