import { isOpen, STATE_RANK } from '../domain/session-timeline.js';
import { sessionStateEvents } from '../network/session-events.js';
import type { VerifierApi } from '../network/verifier-api.js';
import { loadSession, type LoadSessionDeps, type SessionView } from './load-session.js';

export interface FollowSessionDeps extends LoadSessionDeps {
  verifier: LoadSessionDeps['verifier'] & Pick<VerifierApi, 'openSessionEvents'>;
}

/**
 * One open session, live: the verifier's event stream for it (from the state the page
 * shows), and on each change the session as its page shows it. Ends after the
 * terminal state, when the stream ends, or when `signal` aborts.
 */
export async function followSession(
  deps: FollowSessionDeps,
  input: {
    token: () => Promise<string | undefined>;
    orgId: string;
    sessionId: string;
    /** The rank of the state the page shows (the verifier's event id). */
    shownRank: number;
    auditReads: boolean;
    signal: AbortSignal;
    onChange: (view: SessionView) => void;
  },
): Promise<void> {
  const token = await input.token();
  if (!token) return;
  const opened = await deps.verifier.openSessionEvents(
    token,
    input.orgId,
    input.sessionId,
    input.signal,
    String(input.shownRank),
  );
  for await (const event of sessionStateEvents(opened)) {
    if (event.rank <= input.shownRank) continue;
    const current = await input.token();
    if (!current) return;
    const view = await loadSession(deps, {
      token: current,
      orgId: input.orgId,
      sessionId: input.sessionId,
      auditReads: input.auditReads,
    });
    if (view.ok) input.onChange(view.value);
    if (!isOpen(event.state) || event.rank >= STATE_RANK.ResponseVerified) return;
  }
}
