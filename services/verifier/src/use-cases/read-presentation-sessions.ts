import { type Clock, isUuid, type PageWindow } from '@tessera/service-kit';
import type { SessionRow } from '../db/schema.js';
import { findSession, listSessions, type SessionFilters } from '../db/sessions.js';
import { presentationSessionNotFound } from '../domain/errors.js';
import { persistSessionExpiry, type PersistSessionExpiryDeps } from './steps/persist-session-expiry.js';

export interface ReadPresentationSessionsDeps extends PersistSessionExpiryDeps {
  clock: Clock;
}

export interface ReadPresentationSessionsInput {
  orgId: string;
  /** One session by id (the filters are then ignored); otherwise a page of matching ones. */
  id?: string;
  filters: SessionFilters;
  page: PageWindow;
  requestId?: string;
}

/** Sessions with their state as read at `readAt`. */
export type ReadPresentationSessionsResult =
  | { kind: 'one'; session: SessionRow; readAt: Date }
  | { kind: 'page'; rows: SessionRow[]; total: number; readAt: Date };

/**
 * `GET verifier-presentation`: one session, or a page newest first. Expiry is
 * persisted first, so `state` filters and the events agree with what readers see.
 */
export async function readPresentationSessions(
  deps: ReadPresentationSessionsDeps,
  input: ReadPresentationSessionsInput,
): Promise<ReadPresentationSessionsResult> {
  const { orgId, id } = input;
  const readAt = deps.clock();
  await persistSessionExpiry(deps, {
    orgId,
    ...(id && isUuid(id) ? { id } : {}),
    now: readAt,
    requestId: input.requestId,
  });
  if (id !== undefined) {
    const session = isUuid(id) ? await findSession(deps.db, { orgId, id }) : undefined;
    if (!session) throw presentationSessionNotFound();
    return { kind: 'one', session, readAt };
  }
  const { rows, total } = await listSessions(deps.db, {
    orgId,
    filters: input.filters,
    limit: input.page.pageSize,
    offset: input.page.offset,
  });
  return { kind: 'page', rows, total, readAt };
}
