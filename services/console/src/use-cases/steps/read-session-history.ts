import type { SessionState, SessionStateEvent } from '@tessera/contracts';
import { STATE_RANK } from '../../domain/session-timeline.js';
import { sessionStateEvents } from '../../network/session-events.js';
import type { VerifierApi } from '../../network/verifier-api.js';

/** How long the replay of a session's states may take before the page is shown without the rest. */
const HISTORY_TIMEOUT_MS = 2000;

/**
 * When each state of a session was reached. The session record keeps only its
 * creation and last change; the verifier's event stream replays every state after
 * the one a client says it has (`Last-Event-ID`), each with its time. Asking from
 * rank 1 returns the fetch and the outcome; the replay is closed as soon as it
 * reaches the state the session is in now.
 */
export async function readSessionHistory(
  verifier: Pick<VerifierApi, 'openSessionEvents'>,
  input: { token: string; orgId: string; sessionId: string; currentState: SessionState },
): Promise<SessionStateEvent[]> {
  if (STATE_RANK[input.currentState] === 1) return [];
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), HISTORY_TIMEOUT_MS);
  const history: SessionStateEvent[] = [];
  try {
    const opened = await verifier.openSessionEvents(input.token, input.orgId, input.sessionId, controller.signal, '1');
    for await (const event of sessionStateEvents(opened)) {
      history.push(event);
      if (event.rank >= STATE_RANK[input.currentState]) break;
    }
  } finally {
    clearTimeout(timer);
    controller.abort();
  }
  return history;
}
