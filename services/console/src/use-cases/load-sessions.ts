import type { PresentationSession, Verifier } from '@tessera/contracts';
import type { Clock } from '@tessera/service-kit';
import { sessionListQuery, type SessionFilter } from '../domain/session-filter.js';
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
  /** Another page holds older sessions within the filters. */
  hasNext: boolean;
  verifiers: Verifier[];
}

/** A page of the organisation's sessions, newest first, filtered by the verifier by verifier, state and creation time. */
export async function loadSessions(
  deps: LoadSessionsDeps,
  input: { token: string; orgId: string; filter: SessionFilter; pageNumber: number },
): Promise<ServiceResult<SessionList>> {
  const { token, orgId, filter } = input;
  const [page, verifiers] = await Promise.all([
    deps.verifier.listSessions(token, orgId, {
      pageNumber: input.pageNumber,
      pageSize: SESSIONS_PAGE_SIZE,
      ...sessionListQuery(filter, deps.clock()),
    }),
    deps.verifier.listVerifiers(token, orgId, { pageSize: 100 }),
  ]);
  if (!page.ok) return page;
  if (!verifiers.ok) return verifiers;
  return succeeded({
    sessions: page.value.data,
    pageNumber: page.value.page,
    hasNext: page.value.page < page.value.totalPages,
    verifiers: verifiers.value.data,
  });
}
