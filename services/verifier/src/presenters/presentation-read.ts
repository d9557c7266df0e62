import type { PresentationRead } from '@tessera/contracts';
import type { PresentationReadRow } from '../db/schema.js';

/** One row of `verifier-presentation-reads`: who, when, which route — the record has no claim value to show. */
export function toPresentationRead(row: PresentationReadRow): PresentationRead {
  return {
    sessionId: row.sessionId,
    subject: row.subject,
    route: row.route as PresentationRead['route'],
    readAt: row.readAt.toISOString(),
  };
}
