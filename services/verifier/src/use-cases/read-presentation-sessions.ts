import { ErrorCode } from '@tessera/contracts';
import { AppError, type Clock, isUuid, type PageWindow } from '@tessera/service-kit';
import {
  listPresentationDataLifecycles,
  type PresentationDataLifecycleRow,
} from '../db/presentation-data-lifecycles.js';
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

/** Sessions with their state as read at `readAt`, and the presentation data lifecycles of the verified ones by session id. */
export type ReadPresentationSessionsResult =
  | { kind: 'one'; session: SessionRow; readAt: Date; lifecycles: Map<string, PresentationDataLifecycleRow> }
  | {
      kind: 'page';
      rows: SessionRow[];
      total: number;
      readAt: Date;
      lifecycles: Map<string, PresentationDataLifecycleRow>;
    };

/**
 * `GET verifier-presentation`: one session, or a page newest first. Expiry is
 * persisted first, so `state` filters and the events agree with what readers see.
 */
export async function readPresentationSessions(
  deps: ReadPresentationSessionsDeps,
  input: ReadPresentationSessionsInput,
): Promise<ReadPresentationSessionsResult> {
  const { orgId, id } = input;
  if (id === undefined) checkCreatedWindow(input.filters);
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
    return { kind: 'one', session, readAt, lifecycles: await lifecyclesOf(deps, orgId, [session]) };
  }
  const { rows, total } = await listSessions(deps.db, {
    orgId,
    filters: input.filters,
    limit: input.page.pageSize,
    offset: input.page.offset,
  });
  return { kind: 'page', rows, total, readAt, lifecycles: await lifecyclesOf(deps, orgId, rows) };
}

/** `createdAfter` must come before `createdBefore`: a reversed window is a mistake, not an empty page. */
function checkCreatedWindow(filters: SessionFilters): void {
  const { createdAfter, createdBefore } = filters;
  if (createdAfter === undefined || createdBefore === undefined) return;
  if (Date.parse(createdBefore) > Date.parse(createdAfter)) return;
  throw new AppError(400, ErrorCode.VALIDATION_FAILED, 'createdBefore must be later than createdAfter.', [
    { path: '/createdBefore', message: 'must be later than createdAfter' },
  ]);
}

/**
 * A second, small read for verified sessions only (only they have a result): the
 * session statements stay as they are, and a poll of an open session costs nothing more.
 */
async function lifecyclesOf(
  deps: ReadPresentationSessionsDeps,
  orgId: string,
  sessions: SessionRow[],
): Promise<Map<string, PresentationDataLifecycleRow>> {
  const verified = sessions.filter((session) => session.state === 'ResponseVerified').map((session) => session.id);
  const rows = await listPresentationDataLifecycles(deps.db, { orgId, sessionIds: verified });
  return new Map(rows.map((row) => [row.sessionId, row]));
}
