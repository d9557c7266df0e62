import type { PresentationSession, Verifier } from '@tessera/contracts';
import type { Clock } from '@tessera/service-kit';
import { createdSince, type SessionFilter } from '../domain/session-filter.js';
import { succeeded, type ServiceResult } from '../domain/service-problem.js';
import type { VerifierApi } from '../network/verifier-api.js';

export interface LoadSessionsDeps {
  verifier: Pick<VerifierApi, 'listSessions' | 'listVerifiers'>;
  clock: Clock;
}

/** Sessions per page of the list. */
export const SESSIONS_PAGE_SIZE = 25;

export interface SessionList {
  sessions: PresentationSession[];
  pageNumber: number;
  /** Another page holds older sessions within the window. */
  hasNext: boolean;
  verifiers: Verifier[];
}

/**
 * A page of the organisation's sessions, newest first, filtered by verifier and state
 * (the verifier's filters) and by creation time (the console's: the list has no time
 * filter, so a page ends at the first session older than the window).
 */
export async function loadSessions(
  deps: LoadSessionsDeps,
  input: { token: string; orgId: string; filter: SessionFilter; pageNumber: number },
): Promise<ServiceResult<SessionList>> {
  const { token, orgId, filter } = input;
  const [page, verifiers] = await Promise.all([
    deps.verifier.listSessions(token, orgId, {
      pageNumber: input.pageNumber,
      pageSize: SESSIONS_PAGE_SIZE,
      ...(filter.verifierId ? { publicVerifierId: filter.verifierId } : {}),
      ...(filter.state ? { state: filter.state } : {}),
    }),
    deps.verifier.listVerifiers(token, orgId, { pageSize: 100 }),
  ]);
  if (!page.ok) return page;
  if (!verifiers.ok) return verifiers;
  const since = createdSince(filter, deps.clock());
  const sessions = since
    ? page.value.data.filter((session) => Date.parse(session.createdAt) >= since.getTime())
    : page.value.data;
  return succeeded({
    sessions,
    pageNumber: page.value.page,
    hasNext: sessions.length === page.value.data.length && page.value.page < page.value.totalPages,
    verifiers: verifiers.value.data,
  });
}
