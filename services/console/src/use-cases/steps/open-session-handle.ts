import type { ConsoleSession, SessionHandle } from '../../domain/console-session.js';

/** The handle a request holds on a live session: reads through to the stored session, so a flash set here is kept. */
export function openSessionHandle(id: string, session: ConsoleSession): SessionHandle {
  return {
    id,
    get user() {
      return session.user;
    },
    get accessToken() {
      return session.tokens.accessToken;
    },
    get method() {
      return session.method;
    },
    setFlash(flash) {
      session.flash = flash;
    },
    takeFlash() {
      const flash = session.flash;
      delete session.flash;
      return flash;
    },
  };
}
