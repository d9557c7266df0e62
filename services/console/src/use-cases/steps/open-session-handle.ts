import {
  FLASH_MS,
  tokensNeedRenewal,
  type ConsoleSession,
  type Flash,
  type SessionHandle,
} from '../../domain/console-session.js';
import type { CookieSlot } from '../../domain/cookie-slot.js';
import type { Clock } from '@tessera/service-kit';
import type { CookieSeal } from '../../crypto/cookie-seal.js';
import { SEALED_FLASH } from './session-cookie.js';

/**
 * A flash longer than this (sealed) is kept without the typed values: cookies travel in
 * one request header, which an ingress bounds (nginx: 8 KB by default) with the session's.
 */
const MAX_SEALED_FLASH = 3000;

interface SealedFlash {
  sessionId: string;
  at: number;
  flash: Flash;
}

/**
 * The handle a request holds on a live session. The flash travels in a cookie of its
 * own, sealed and bound to the session, from the form's answer to the page after its
 * redirect (which may be served by another replica).
 */
export function openSessionHandle(
  session: ConsoleSession,
  deps: { seal: CookieSeal; clock: Clock; flashCookie: CookieSlot },
): SessionHandle {
  let pendingFlash: Flash | undefined;
  return {
    id: session.id,
    user: session.user,
    accessToken: session.tokens.accessToken,
    method: session.method,
    usableAccessToken() {
      return tokensNeedRenewal(session.tokens, deps.clock().getTime()) ? undefined : session.tokens.accessToken;
    },
    setFlash(flash) {
      pendingFlash = flash;
      const at = deps.clock().getTime();
      const { values: _values, details: _details, ...bare } = flash;
      const { values: _unkept, ...withoutValues } = flash;
      // The typed values first, then the problems' details, give way to keep the cookies small.
      const sealed = [flash, withoutValues, bare]
        .map((kept) => deps.seal.seal(SEALED_FLASH, { sessionId: session.id, at, flash: kept } satisfies SealedFlash))
        .find((candidate, index, all) => candidate.length <= MAX_SEALED_FLASH || index === all.length - 1)!;
      deps.flashCookie.write(sealed, FLASH_MS / 1000);
    },
    takeFlash() {
      if (pendingFlash) {
        const flash = pendingFlash;
        pendingFlash = undefined;
        deps.flashCookie.clear();
        return flash;
      }
      const sealed = deps.flashCookie.read();
      if (!sealed) return undefined;
      deps.flashCookie.clear();
      const opened = deps.seal.open(SEALED_FLASH, sealed) as SealedFlash | undefined;
      const fresh = opened && opened.sessionId === session.id && deps.clock().getTime() - opened.at <= FLASH_MS;
      return fresh ? opened.flash : undefined;
    },
  };
}
