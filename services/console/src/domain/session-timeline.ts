import type { PresentationRead, PresentationSession, SessionState, SessionStateEvent } from '@tessera/contracts';

/** The verifier's event ids: a session only moves forward through these ranks (services/verifier/README.md). */
export const STATE_RANK: Record<SessionState, number> = {
  RequestCreated: 1,
  RequestUriRetrieved: 2,
  ResponseVerified: 3,
  Error: 3,
};

export const isOpen = (state: SessionState) => state === 'RequestCreated' || state === 'RequestUriRetrieved';

export type TimelineTone = 'good' | 'bad' | 'neutral' | 'pending';

export interface TimelineStep {
  /** What happened, in a sentence. */
  title: string;
  at?: string;
  tone: TimelineTone;
  /** The check that refused, and the verifier's words. */
  code?: string;
  detail?: string;
}

/** Why a session ended in `Error`, in words: the code names the check (VERIFIER.md, Verification). */
function refusalTitle(code: string | undefined): string {
  switch (code) {
    case 'SESSION_EXPIRED':
      return 'Expired before the wallet answered';
    case 'WALLET_ERROR':
      return 'The wallet declined or failed';
    default:
      return 'Answered by the wallet, and refused';
  }
}

/**
 * One session's story: created, fetched by the wallet, answered and verified or refused
 * (with the exact code), then each read of its data. `history` is what the verifier's
 * event stream replays (each state's time); a state the session skipped (a DC API session
 * is never fetched) has no step. While open, the step it waits for is shown pending.
 */
export function sessionTimeline(
  session: PresentationSession,
  history: readonly SessionStateEvent[],
  reads: readonly PresentationRead[] = [],
): TimelineStep[] {
  const at = (state: SessionState) => history.find((event) => event.state === state)?.changedAt;
  const steps: TimelineStep[] = [
    {
      title: `Request created (${session.responseMode}) for verifier ${session.publicVerifierId}`,
      at: session.createdAt,
      tone: 'neutral',
    },
  ];
  const fetchedAt = at('RequestUriRetrieved');
  if (fetchedAt || session.state === 'RequestUriRetrieved')
    steps.push({ title: 'Request fetched by the wallet', at: fetchedAt ?? session.updatedAt, tone: 'neutral' });
  if (session.state === 'ResponseVerified') {
    steps.push({
      title: 'Answered by the wallet and verified',
      at: at('ResponseVerified') ?? session.updatedAt,
      tone: 'good',
    });
  } else if (session.state === 'Error') {
    steps.push({
      title: refusalTitle(session.error?.code),
      at: at('Error') ?? session.updatedAt,
      tone: 'bad',
      ...(session.error ? { code: session.error.code, detail: session.error.message } : {}),
    });
  } else {
    steps.push({
      title:
        session.state === 'RequestCreated'
          ? 'Waiting for a wallet to fetch the request'
          : 'Waiting for the wallet to answer',
      at: session.expiresAt,
      tone: 'pending',
      detail: 'The request expires at the time shown.',
    });
  }
  for (const read of [...reads].sort((a, b) => a.readAt.localeCompare(b.readAt)))
    steps.push({
      title: `Presentation data read by ${read.subject}`,
      at: read.readAt,
      tone: 'neutral',
      detail:
        read.route === 'verify-authorization-response'
          ? 'with the DC API answer'
          : 'through verifier-presentation-response',
    });
  return steps;
}
