import type { ErrorDetail } from '@tessera/contracts';
import type { SignedInUser } from './signed-in-user.js';

/** The user's tokens, kept by the console only: never in a cookie, a page or a script. */
export interface SessionTokens {
  accessToken: string;
  refreshToken?: string;
  idToken?: string;
  /** When the access token stops being accepted, in ms since the epoch. */
  expiresAt: number;
}

/** How the user signed in: the platform's provider, or the development key (development mode only). */
export type SignInMethod = 'oidc' | 'development';

/**
 * What a form's answer leaves for the next page: the outcome in a sentence, a
 * service's problems at their paths, the values the person typed (so a refused form
 * comes back filled in), and a secret to show exactly once (a webhook's signing secret).
 */
export interface Flash {
  kind: 'success' | 'problem';
  message: string;
  code?: string;
  details?: ErrorDetail[];
  values?: Record<string, string>;
  secret?: { label: string; value: string };
}

/** A signed-in session of the console. */
export interface ConsoleSession {
  user: SignedInUser;
  tokens: SessionTokens;
  method: SignInMethod;
  /** For the development method: the claims to mint a fresh token with when this one is about to expire. */
  developmentClaims?: DevelopmentClaims;
  flash?: Flash;
}

/** The development sign-in: who to be, as `npm run token` takes it. */
export interface DevelopmentClaims {
  sub: string;
  email?: string;
  platformAdmin: boolean;
  orgRoles: Record<string, string[]>;
}

/** A sign-in waiting for the provider's answer (authorization code + PKCE). */
export interface PendingSignIn {
  state: string;
  nonce: string;
  codeVerifier: string;
  /** The console page to return to (a path on the console, never another site). */
  returnTo: string;
}

/** How long before its expiry an access token is renewed, so a call never goes out with a dying token. */
export const TOKEN_RENEWAL_MARGIN_MS = 30_000;

/** True when the access token should be renewed before the next call. */
export function tokensNeedRenewal(tokens: SessionTokens, now: number): boolean {
  return tokens.expiresAt - now < TOKEN_RENEWAL_MARGIN_MS;
}

/** A `returnTo` the console accepts: one of its own paths, never `//host` or a scheme (an open redirect). */
export function safeReturnPath(value: unknown): string {
  if (typeof value !== 'string' || !value.startsWith('/') || value.startsWith('//') || value.startsWith('/\\'))
    return '/';
  return /^[\x21-\x7e]*$/.test(value) ? value : '/';
}

/**
 * A signed-in request's view of its session: who, the token to call the services
 * with, and the one-page flash. Routes hold this, never the store behind it.
 */
export interface SessionHandle {
  readonly id: string;
  readonly user: SignedInUser;
  readonly accessToken: string;
  readonly method: SignInMethod;
  setFlash(flash: Flash): void;
  takeFlash(): Flash | undefined;
}
