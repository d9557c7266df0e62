import type {
  PresentationDataLifecycle,
  PresentationRead,
  PresentationSession,
  SessionState,
} from '@tessera/contracts';

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
 * One session's story from its record (the verifier says when each step happened):
 * created, fetched by the wallet, answered and verified or refused (with the exact code),
 * each read of its data, and what became of the data — removed in part after the read
 * grace, purged, or kept until its deadline. A step the session skipped (a DC API session
 * is never fetched) is not shown. While open, the step it waits for is shown pending.
 */
export function sessionTimeline(session: PresentationSession, reads: readonly PresentationRead[] = []): TimelineStep[] {
  const steps: TimelineStep[] = [
    {
      title: `Request created (${session.responseMode}) for verifier ${session.publicVerifierId}`,
      at: session.createdAt,
      tone: 'neutral',
    },
  ];
  if (session.requestRetrievedAt)
    steps.push({ title: 'Request fetched by the wallet', at: session.requestRetrievedAt, tone: 'neutral' });
  if (session.state === 'ResponseVerified') {
    steps.push({
      title: 'Answered by the wallet and verified',
      at: session.answeredAt ?? session.updatedAt,
      tone: 'good',
    });
  } else if (session.state === 'Error') {
    const expired = session.error?.code === 'SESSION_EXPIRED';
    steps.push({
      title: refusalTitle(session.error?.code),
      at: expired ? session.expiresAt : (session.answeredAt ?? session.updatedAt),
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
  if (session.presentationData) steps.push(...presentationDataSteps(session.presentationData));
  return steps;
}

/**
 * What became of a verified session's claims. `claimsState` is what a read finds now;
 * `claimsPurgedAt` when the verifier's purge job removed them (a deadline can pass a
 * little before the job comes by: the step then says when the data's lifetime ended).
 */
function presentationDataSteps(data: PresentationDataLifecycle): TimelineStep[] {
  const dropped: TimelineStep = {
    title: 'Claims not marked to retain removed',
    ...(data.readExpiresAt ? { at: data.readExpiresAt } : {}),
    tone: 'neutral',
    detail: 'The read grace after the first read ended; the claims the query marked intent_to_retain stay.',
  };
  if (data.claimsState === 'full')
    return [
      {
        title: data.readExpiresAt ? 'Claims not marked to retain kept until' : 'Presentation data kept until',
        at: data.readExpiresAt ?? data.dataExpiresAt,
        tone: 'pending',
        detail: data.readExpiresAt
          ? `Every claim goes at ${data.dataExpiresAt} at the latest.`
          : 'Or until the read grace after its first read ends, for claims the query does not mark intent_to_retain.',
      },
    ];
  if (data.claimsState === 'retained')
    return [
      dropped,
      {
        title: 'Retained claims kept until',
        at: data.dataExpiresAt,
        tone: 'pending',
        detail: 'Then every claim goes.',
      },
    ];
  const lifetimeEnd =
    data.readExpiresAt && data.readExpiresAt < data.dataExpiresAt ? data.readExpiresAt : data.dataExpiresAt;
  return [
    data.claimsPurgedAt
      ? {
          title: 'Presentation data purged',
          at: data.claimsPurgedAt,
          tone: 'neutral',
          detail: 'No claim value is left; the record and what was verified stay.',
        }
      : {
          title: 'Presentation data expired',
          at: lifetimeEnd,
          tone: 'neutral',
          detail: 'Reads are refused; the verifier purges it at its next run.',
        },
  ];
}
