// The state columns of presentation sessions, for session event streams. Tenant
// scoping: `findSessionState` takes `orgId` (a stream is opened for one
// organisation's session); `findSessionStates` reads by id alone the sessions this
// replica's streams follow, each admitted for its organisation when it was opened.
import { and, eq, inArray, sql } from 'drizzle-orm';
import { preparedFor } from '@tessera/service-kit';
import { presentationSessions, type SessionRow } from './schema.js';
import type { VerifierDb } from './types.js';

/** What state events are made of: the state, its error, and when each state was reached. */
export type SessionStateRow = Pick<
  SessionRow,
  | 'id'
  | 'orgId'
  | 'state'
  | 'errorCode'
  | 'errorSubject'
  | 'createdAt'
  | 'requestRetrievedAt'
  | 'updatedAt'
  | 'expiresAt'
  | 'overAsking'
>;

const stateColumns = {
  id: presentationSessions.id,
  orgId: presentationSessions.orgId,
  state: presentationSessions.state,
  errorCode: presentationSessions.errorCode,
  errorSubject: presentationSessions.errorSubject,
  createdAt: presentationSessions.createdAt,
  requestRetrievedAt: presentationSessions.requestRetrievedAt,
  updatedAt: presentationSessions.updatedAt,
  expiresAt: presentationSessions.expiresAt,
  overAsking: presentationSessions.overAsking,
};

export async function findSessionState(
  db: VerifierDb,
  params: { orgId: string; id: string },
): Promise<SessionStateRow | undefined> {
  const [row] = await selectSessionState(db).execute(params);
  return row;
}

/** Read on every change event of a followed session: prepared once per database handle. */
const selectSessionState = preparedFor((db: VerifierDb) =>
  db
    .select(stateColumns)
    .from(presentationSessions)
    .where(
      and(eq(presentationSessions.orgId, sql.placeholder('orgId')), eq(presentationSessions.id, sql.placeholder('id'))),
    )
    .prepare('find_session_state'),
);

/** The states of the sessions `ids` (by primary key; at most a few thousand ids per call). */
export async function findSessionStates(db: VerifierDb, params: { ids: string[] }): Promise<SessionStateRow[]> {
  if (params.ids.length === 0) return [];
  return db.select(stateColumns).from(presentationSessions).where(inArray(presentationSessions.id, params.ids));
}
