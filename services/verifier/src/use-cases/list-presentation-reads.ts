import { isUuid, type PageWindow } from '@tessera/service-kit';
import { listPresentationReads as listReadRows } from '../db/presentation-reads.js';
import type { PresentationReadRow } from '../db/schema.js';
import { findSession } from '../db/sessions.js';
import type { VerifierDb } from '../db/types.js';
import { presentationSessionNotFound } from '../domain/errors.js';

export interface ListPresentationReadsDeps {
  db: VerifierDb;
}

/**
 * `GET verifier-presentation-reads`: who read the session's presentation data,
 * newest first. An unknown, malformed or other organisation's session id is 404,
 * as on the other session routes; a session never read is an empty page.
 */
export async function listPresentationReads(
  deps: ListPresentationReadsDeps,
  input: { orgId: string; sessionId: string; page: PageWindow },
): Promise<{ rows: PresentationReadRow[]; total: number }> {
  const { orgId, sessionId, page } = input;
  const session = isUuid(sessionId) ? await findSession(deps.db, { orgId, id: sessionId }) : undefined;
  if (!session) throw presentationSessionNotFound();
  return listReadRows(deps.db, { orgId, sessionId, limit: page.pageSize, offset: page.offset });
}
