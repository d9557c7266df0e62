import { randomBytes } from 'node:crypto';
import {
  isSealedSession,
  sessionCookieMaxAgeSeconds,
  type ConsoleSession,
  type SealedSession,
  type SessionLifetime,
} from '../../domain/console-session.js';
import type { CookieSlot } from '../../domain/cookie-slot.js';
import type { CookieSeal } from '../../crypto/cookie-seal.js';
import type { SessionGrant } from './session-from-tokens.js';

/** The seal's purposes (its associated data): a value sealed for one cookie never opens as another. */
export const SEALED_SESSION = 'tessera-console/session';
export const SEALED_PENDING_SIGN_IN = 'tessera-console/pending-sign-in';
export const SEALED_FLASH = 'tessera-console/flash';

/** The session a cookie holds, when it was sealed by this key as a session (its lifetime not yet checked). */
export function openSessionCookie(seal: CookieSeal, slot: CookieSlot): SealedSession | undefined {
  const sealed = slot.read();
  if (!sealed) return undefined;
  const opened = seal.open(SEALED_SESSION, sealed);
  return isSealedSession(opened) ? opened : undefined;
}

/** Seals the session into its cookie (a new IV every time), good for as long as the session may still live. */
export function writeSessionCookie(
  seal: CookieSeal,
  slot: CookieSlot,
  session: ConsoleSession | SealedSession,
  now: number,
  lifetime: SessionLifetime,
): void {
  const { id, tokens, method, developmentClaims, signedInAt, lastUsedAt } = session;
  const sealed: SealedSession = {
    id,
    tokens,
    method,
    ...(developmentClaims ? { developmentClaims } : {}),
    signedInAt,
    lastUsedAt,
  };
  slot.write(seal.seal(SEALED_SESSION, sealed), sessionCookieMaxAgeSeconds(session, now, lifetime));
}

/** A new session from a grant: a new random id (never the one from before sign-in: no fixation). */
export function newSession(grant: SessionGrant, now: number): ConsoleSession {
  return { ...grant, id: randomBytes(32).toString('base64url'), signedInAt: now, lastUsedAt: now };
}
