// The read audit (issue 15, item 4): who read which session's presentation data.
// A read of `verifier-presentation-response`, its record and the start of its read
// grace are one statement, so data never leaves without its record (nor without its
// deletion scheduled), and a read that finds nothing, or finds it expired, records nothing.
import { and, count, desc, eq, getTableColumns } from 'drizzle-orm';
import { runRawStatement } from '@tessera/service-kit';
import type { PresentationReader } from '../domain/presentation-read-routes.js';
import {
  presentationReads,
  presentationResults,
  presentationSessions,
  type PresentationReadRow,
  type PresentationResultRow,
  type SessionRow,
} from './schema.js';
import type { VerifierDb } from './types.js';

/**
 * The result may hand out data at $5 (read at): the SQL form of
 * domain/presentation-data.ts `readablePresentationData` over the `result` CTE — keep the two together.
 * Only plain columns: an expired result is refused without decrypting anything.
 */
const READABLE = `
  result.claims_state <> 'purged' and result.data_expires_at > $5::timestamptz
  and (result.sealed_retained_presentations is not null
       or (result.claims_state = 'full' and (result.read_expires_at is null or result.read_expires_at > $5::timestamptz)))`;

/**
 * $1 org id, $2 session id, $3 subject, $4 route, $5 read at, $6 read grace ends (read at +
 * PRESENTATION_READ_GRACE_SECONDS), $7 the SHA-256 (base64url) of the `responseCode` the
 * caller gave, or null when it gave none.
 * The session and its result are read together; the result only counts (recorded, graced,
 * answered) when the session is ResponseVerified and, when a code was given, its stored hash
 * is that code's. The rows come back as they were before this statement (a CTE's update is
 * not seen by its siblings), whether or not the result is readable, so the caller tells 410
 * from 409. Session columns keep their names; the result's are prefixed `result.`.
 */
const READ_SESSION_AND_RESULT = `
  with session as (
    select * from "verifier"."presentation_sessions" where org_id = $1 and id = $2::uuid
  ),
  result as (
    select r.* from "verifier"."presentation_results" r join session s on s.id = r.session_id
    where r.org_id = $1 and r.session_id = $2::uuid and s.state = 'ResponseVerified'
      and ($7::text is null or s.response_code_hash = $7::text)
  ),
  recorded as (
    insert into "verifier"."presentation_reads" (session_id, org_id, subject, route, read_at)
    select session_id, org_id, $3, $4, $5::timestamptz from result where ${READABLE}
  ),
  graced as (
    update "verifier"."presentation_results" r set read_expires_at = $6::timestamptz
    from result
    where r.session_id = result.session_id and result.claims_state = 'full' and result.read_expires_at is null and ${READABLE}
  )
  select session.id, session.org_id, session.state, session.expires_at, session.error_code, session.error_subject,
    session.response_code_hash, ${Object.values(getTableColumns(presentationResults))
      .map((column) => `result."${column.name}" as "result.${column.name}"`)
      .join(', ')}
  from session left join result on true`;

/**
 * What a result read needs of its session (its state, as `effectiveSessionState` judges it,
 * and the response code's hash): only these columns are read, not the request object, query
 * and metadata a session row carries.
 */
export type SessionReadState = Pick<
  SessionRow,
  'id' | 'orgId' | 'state' | 'expiresAt' | 'errorCode' | 'errorSubject' | 'responseCodeHash'
>;

const sessionTimestamp = (value: unknown): Date =>
  presentationSessions.expiresAt.mapFromDriverValue(value as string) as Date;

/**
 * The session and, when it is ResponseVerified (and `responseCodeHash`, when given, is
 * the session's), its presentation result, in one statement: when the result is readable
 * at `reader.at` it is recorded as read by `reader`, and a first read starts the read grace
 * (`read_expires_at` = `graceEndsAt`); a result past its lifetime is answered (so the
 * caller can say 410) but neither recorded nor stamped. Undefined when there is no such
 * session; `result` undefined (and nothing recorded) when the session has none or is not
 * ResponseVerified, or the code is not the session's. Every column of
 * `presentation_results` is decoded, so columns added to it come through.
 */
export async function readSessionAndResultRecorded(
  db: VerifierDb,
  params: {
    orgId: string;
    sessionId: string;
    reader: PresentationReader;
    graceEndsAt: Date;
    responseCodeHash: string | null;
  },
): Promise<{ session: SessionReadState; result: PresentationResultRow | undefined } | undefined> {
  const { orgId, sessionId, reader } = params;
  const [row] = await runRawStatement(db, READ_SESSION_AND_RESULT, [
    orgId,
    sessionId,
    reader.subject,
    reader.route,
    reader.at.toISOString(),
    params.graceEndsAt.toISOString(),
    params.responseCodeHash,
  ]);
  if (!row) return undefined;
  return {
    session: {
      id: row.id as string,
      orgId: row.org_id as string,
      state: row.state as string,
      expiresAt: sessionTimestamp(row.expires_at),
      errorCode: (row.error_code as string | null) ?? null,
      errorSubject: (row.error_subject as string | null) ?? null,
      responseCodeHash: (row.response_code_hash as string | null) ?? null,
    },
    result: row[RESULT_SESSION_ID] === null || row[RESULT_SESSION_ID] === undefined ? undefined : decodeResultRow(row),
  };
}

/** The result's columns as the statement names them (`result.<column>`), by property name: listed once. */
const RESULT_COLUMNS = Object.entries(getTableColumns(presentationResults)).map(
  ([key, column]) => [key, column, `result.${column.name}`] as const,
);
const RESULT_SESSION_ID = `result.${presentationResults.sessionId.name}`;

function decodeResultRow(raw: Record<string, unknown>): PresentationResultRow {
  const row: Record<string, unknown> = {};
  for (const [key, column, name] of RESULT_COLUMNS) {
    const value = raw[name];
    row[key] = value === null || value === undefined ? null : column.mapFromDriverValue(value);
  }
  return row as PresentationResultRow;
}

/** Records a read made by another statement (the DC API answer, whose data comes from the verifying statement). */
export async function recordPresentationRead(
  db: VerifierDb,
  params: { orgId: string; sessionId: string; reader: PresentationReader },
): Promise<void> {
  const { orgId, sessionId, reader } = params;
  await db
    .insert(presentationReads)
    .values({ orgId, sessionId, subject: reader.subject, route: reader.route, readAt: reader.at });
}

/** A page of the session's reads, newest first (ties: the later record first). */
export async function listPresentationReads(
  db: VerifierDb,
  params: { orgId: string; sessionId: string; limit: number; offset: number },
): Promise<{ rows: PresentationReadRow[]; total: number }> {
  const r = presentationReads;
  const where = and(eq(r.orgId, params.orgId), eq(r.sessionId, params.sessionId));
  const rows = await db
    .select()
    .from(r)
    .where(where)
    .orderBy(desc(r.readAt), desc(r.id))
    .limit(params.limit)
    .offset(params.offset);
  const [total] = await db.select({ value: count() }).from(r).where(where);
  return { rows, total: total?.value ?? 0 };
}
