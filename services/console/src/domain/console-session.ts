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

/**
 * A signed-in session of the console. The browser keeps it, sealed (see
 * crypto/cookie-seal.ts): any replica with the same SESSION_SECRET opens it.
 */
export interface ConsoleSession {
  /** Random (256 bits), new at every sign-in, kept across renewals: form tokens are bound to it. */
  id: string;
  user: SignedInUser;
  tokens: SessionTokens;
  method: SignInMethod;
  /** For the development method: the claims to mint a fresh token with when this one is about to expire. */
  developmentClaims?: DevelopmentClaims;
  /** When the person signed in (the maximum lifetime counts from here), ms since the epoch. */
  signedInAt: number;
  /** When a request last used the session (the idle lifetime counts from here), to the minute. */
  lastUsedAt: number;
}

/** What the session cookie carries: the session without what its tokens say (the user is read from them again). */
export type SealedSession = Omit<ConsoleSession, 'user'>;

/** How long a session lives: unused, and at most. */
export interface SessionLifetime {
  idleMs: number;
  maxAgeMs: number;
}

/**
 * A session's cookie is sealed again (its last use moved) at most this often: the idle
 * lifetime is enforced to the minute, and most answers carry no new cookie.
 */
export const SESSION_TOUCH_INTERVAL_MS = 60_000;

/** True while the session is within both lifetimes. */
export function sessionIsLive(
  session: Pick<ConsoleSession, 'signedInAt' | 'lastUsedAt'>,
  now: number,
  lifetime: SessionLifetime,
): boolean {
  return (
    now - session.lastUsedAt <= lifetime.idleMs &&
    now - session.signedInAt <= lifetime.maxAgeMs &&
    session.signedInAt <= now + 60_000
  );
}

/** The cookie's Max-Age: the browser drops it when the session would have ended anyway. */
export function sessionCookieMaxAgeSeconds(
  session: Pick<ConsoleSession, 'signedInAt' | 'lastUsedAt'>,
  now: number,
  lifetime: SessionLifetime,
): number {
  const until = Math.min(session.lastUsedAt + lifetime.idleMs, session.signedInAt + lifetime.maxAgeMs);
  return Math.max(0, Math.floor((until - now) / 1000));
}

/** The shape of an opened session cookie (sealed by the console, so only a change of layout fails this). */
export function isSealedSession(value: unknown): value is SealedSession {
  const session = value as Partial<SealedSession> | null;
  return (
    typeof session === 'object' &&
    session !== null &&
    typeof session.id === 'string' &&
    typeof session.signedInAt === 'number' &&
    typeof session.lastUsedAt === 'number' &&
    (session.method === 'oidc' || session.method === 'development') &&
    typeof session.tokens?.accessToken === 'string' &&
    typeof session.tokens.expiresAt === 'number'
  );
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
  /** ms since the epoch: a pending sign-in is good for PENDING_SIGN_IN_MS. */
  startedAt: number;
}

/** How long the provider has to send the person back. */
export const PENDING_SIGN_IN_MS = 600_000;

/** A flash waits this long for the page after the form's redirect. */
export const FLASH_MS = 300_000;

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
 * with, and the one-page flash. Routes hold this, never the cookies behind it.
 */
export interface SessionHandle {
  readonly id: string;
  readonly user: SignedInUser;
  readonly accessToken: string;
  readonly method: SignInMethod;
  /**
   * The access token while it needs no renewal, for a call made later in a long request
   * (an event stream, whose answer can no longer carry a renewed cookie): undefined
   * once it does, and the stream ends so the browser reconnects and renews on the way.
   */
  usableAccessToken(): string | undefined;
  setFlash(flash: Flash): void;
  takeFlash(): Flash | undefined;
}
