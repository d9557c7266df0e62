import type { PresentationSession } from '@tessera/contracts';
import type { Clock } from '@tessera/service-kit';
import { sessionListQuery, type SessionFilter } from '../domain/session-filter.js';
import { isOpen } from '../domain/session-timeline.js';
import { sessionStateEvents } from '../network/session-events.js';
import type { VerifierApi } from '../network/verifier-api.js';
import { SESSIONS_PAGE_SIZE } from './load-sessions.js';

export interface FollowSessionListDeps {
  verifier: Pick<VerifierApi, 'listSessions' | 'getSession' | 'openSessionEvents'>;
  clock: Clock;
  /** How often the first page is read again for sessions created since (there is no organisation-wide stream). */
  refreshMs: number;
}

/** Open sessions followed at once per list (each is one of the verifier's event streams). */
const MAX_FOLLOWED = 20;

/**
 * The first page of the session list, live: every change of a listed open session
 * arrives through the verifier's own event stream for it (at once, from whichever
 * replica the wallet reached), and sessions created since are found by reading the
 * first page again every `refreshMs`. `onChange` gets each session whose state is new
 * to the list, oldest change first. Runs until `signal` aborts.
 */
export async function followSessionList(
  deps: FollowSessionListDeps,
  input: {
    /** The user's access token for the next call (renewed as needed); undefined once the session has ended. */
    token: () => Promise<string | undefined>;
    orgId: string;
    filter: SessionFilter;
    /** What the page already shows: id → state. */
    shown: ReadonlyMap<string, string>;
    signal: AbortSignal;
    onChange: (session: PresentationSession) => void;
  },
): Promise<void> {
  const { orgId, filter, signal } = input;
  const known = new Map(input.shown);
  const followed = new Map<string, AbortController>();

  const report = (session: PresentationSession) => {
    if (known.get(session.id) === session.state) return;
    known.set(session.id, session.state);
    input.onChange(session);
  };
  const follow = (session: PresentationSession) => {
    if (!isOpen(session.state) || followed.has(session.id) || followed.size >= MAX_FOLLOWED) return;
    const controller = new AbortController();
    followed.set(session.id, controller);
    const stop = () => controller.abort();
    signal.addEventListener('abort', stop, { once: true });
    void (async () => {
      try {
        const token = await input.token();
        if (!token) return;
        const opened = await deps.verifier.openSessionEvents(token, orgId, session.id, controller.signal);
        for await (const _event of sessionStateEvents(opened)) {
          // The event says something changed; the record says everything the row shows.
          const current = await input.token();
          if (!current) return;
          const fresh = await deps.verifier.getSession(current, orgId, session.id);
          if (fresh.ok && matches(fresh.value)) report(fresh.value);
        }
      } finally {
        signal.removeEventListener('abort', stop);
        followed.delete(session.id);
      }
    })();
  };
  const matches = (session: PresentationSession) =>
    (!filter.verifierId || session.publicVerifierId === filter.verifierId) &&
    (!filter.state || session.state === filter.state);

  while (!signal.aborted) {
    const token = await input.token();
    // The session ended (signed out, expired): the browser reconnects and is sent to sign in.
    if (!token) break;
    const page = await deps.verifier.listSessions(
      token,
      orgId,
      {
        pageNumber: 1,
        pageSize: SESSIONS_PAGE_SIZE,
        ...sessionListQuery(filter, deps.clock()),
      },
      signal,
    );
    if (page.ok) {
      const listed = page.value.data;
      for (const session of [...listed].reverse()) report(session);
      for (const session of listed) follow(session);
    }
    await pause(deps.refreshMs, signal);
  }
  for (const controller of followed.values()) controller.abort();
}

/** Waits `ms`, or less when `signal` aborts. */
function pause(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, ms);
    signal.addEventListener(
      'abort',
      () => {
        clearTimeout(timer);
        resolve();
      },
      { once: true },
    );
  });
}
