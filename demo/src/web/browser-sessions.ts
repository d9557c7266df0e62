import { randomBytes, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage } from 'node:http';

const COOKIE = 'tessera_demo_browser';
/** Sessions remembered at most (the oldest forgotten first): a bound on memory, far above a demo's use. */
const MAX_SESSIONS = 10_000;

interface OwnedSession {
  browserId: string;
  authorizationRequestUri?: string;
  /** Its result is read only with the `response_code` of the wallet's redirect (read-same-device-result.ts). */
  sameDevice: boolean;
}

/**
 * Which browser started which presentation session. The page's backend answers a
 * browser only about its own sessions, and the same-device redirect page reads the
 * result of *this browser's* last same-device session with the `response_code` the
 * wallet's redirect carried (the verifier README, "Response Code"): the session id
 * never travels in a URL, so a redirect from another session's wallet is refused.
 * Kept in memory: the demo's backend is one process.
 */
export class BrowserSessions {
  private readonly sessions = new Map<string, OwnedSession>();
  private readonly latestSameDevice = new Map<string, string>();

  /**
   * The browser's id from its cookie, or a new one with the Set-Cookie header to send.
   * The cookie is `Secure` unless the page is reached at plain localhost (http on a
   * developer's machine): anywhere else the page must be served over https, and the id
   * that names a browser's sessions must never travel in clear.
   */
  identify(request: IncomingMessage): { browserId: string; setCookie?: string } {
    const existing = readCookie(request, COOKIE);
    if (existing && /^[A-Za-z0-9_-]{22}$/.test(existing)) return { browserId: existing };
    const browserId = randomBytes(16).toString('base64url');
    const secure = isPlainLocalhost(request.headers.host) ? '' : '; Secure';
    return { browserId, setCookie: `${COOKIE}=${browserId}; Path=/; HttpOnly; SameSite=Lax${secure}` };
  }

  remember(
    sessionId: string,
    owner: { browserId: string; authorizationRequestUri?: string; sameDevice: boolean },
  ): void {
    if (this.sessions.size >= MAX_SESSIONS) this.sessions.delete(this.sessions.keys().next().value!);
    this.sessions.set(sessionId, {
      browserId: owner.browserId,
      sameDevice: owner.sameDevice,
      ...(owner.authorizationRequestUri ? { authorizationRequestUri: owner.authorizationRequestUri } : {}),
    });
    if (owner.sameDevice) {
      this.latestSameDevice.delete(owner.browserId);
      if (this.latestSameDevice.size >= MAX_SESSIONS)
        this.latestSameDevice.delete(this.latestSameDevice.keys().next().value!);
      this.latestSameDevice.set(owner.browserId, sessionId);
    }
  }

  /** The session when this browser started it; undefined otherwise (the caller answers 404, as for an unknown id). */
  ownedBy(sessionId: string, browserId: string): OwnedSession | undefined {
    const session = this.sessions.get(sessionId);
    return session && sameText(session.browserId, browserId) ? session : undefined;
  }

  /** This browser's last same-device session, the one a wallet's redirect back to the page concludes. */
  latestSameDeviceOf(browserId: string): string | undefined {
    return this.latestSameDevice.get(browserId);
  }
}

/** Whether the Host header names this machine's loopback (localhost, 127.0.0.1 or [::1]), any port. */
export function isPlainLocalhost(host: string | undefined): boolean {
  const name = (host ?? '').replace(/:\d+$/, '').toLowerCase();
  return name === 'localhost' || name === '127.0.0.1' || name === '[::1]';
}

function readCookie(request: IncomingMessage, name: string): string | undefined {
  for (const part of (request.headers.cookie ?? '').split(';')) {
    const [key, ...value] = part.trim().split('=');
    if (key === name) return value.join('=');
  }
  return undefined;
}

function sameText(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
}
