import type { PresentationRead, PresentationSession } from '@tessera/contracts';
import { succeeded, type ServiceResult } from '../domain/service-problem.js';
import { sessionTimeline, type TimelineStep } from '../domain/session-timeline.js';
import type { VerifierApi } from '../network/verifier-api.js';

export interface LoadSessionDeps {
  verifier: Pick<VerifierApi, 'getSession' | 'listPresentationReads'>;
}

export interface SessionView {
  session: PresentationSession;
  /** Who read its presentation data: owners and admins only (undefined for the `verifier` role). */
  reads?: PresentationRead[];
  timeline: TimelineStep[];
}

/** One session with its timeline: each step's time from its record, and each read of its data. */
export async function loadSession(
  deps: LoadSessionDeps,
  input: { token: string; orgId: string; sessionId: string; auditReads: boolean },
): Promise<ServiceResult<SessionView>> {
  const { token, orgId, sessionId } = input;
  const session = await deps.verifier.getSession(token, orgId, sessionId);
  if (!session.ok) return session;
  const reads =
    input.auditReads && session.value.state === 'ResponseVerified'
      ? await deps.verifier.listPresentationReads(token, orgId, sessionId, { pageSize: 100 })
      : undefined;
  if (reads && !reads.ok) return reads;
  return succeeded({
    session: session.value,
    ...(reads ? { reads: reads.value.data } : {}),
    timeline: sessionTimeline(session.value, reads?.value.data ?? []),
  });
}
