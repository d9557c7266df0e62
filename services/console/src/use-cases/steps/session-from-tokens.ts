import { decodeJwt } from 'jose';
import type { ConsoleSession, DevelopmentClaims, SignInMethod } from '../../domain/console-session.js';
import { accessTokenExpiry, userOfAccessToken } from '../../domain/signed-in-user.js';
import type { OidcTokens } from '../../network/oidc-client.js';

/** A session (or its renewal) from the tokens a grant or the development key gave. */
export function sessionFromTokens(
  tokens: OidcTokens,
  method: SignInMethod,
  now: Date,
  developmentClaims?: DevelopmentClaims,
): ConsoleSession {
  const idTokenClaims = tokens.idToken ? (decodeJwt(tokens.idToken) as Record<string, unknown>) : {};
  const expiresAt = accessTokenExpiry(tokens.accessToken) ?? now.getTime() + (tokens.expiresIn ?? 300) * 1000;
  return {
    user: userOfAccessToken(tokens.accessToken, idTokenClaims),
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
