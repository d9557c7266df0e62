// The read audit (issue 15, item 4): who read which session's presentation data.
// A read of `verifier-presentation-response` and its record are one statement, so
// data never leaves without its record and a read that finds nothing records nothing.
import { and, count, desc, eq, getTableColumns } from 'drizzle-orm';
import { runRawStatement } from '@tessera/service-kit';
import type { PresentationReader } from '../domain/presentation-read-routes.js';
import { presentationReads, presentationResults, type PresentationReadRow, type PresentationResultRow } from './schema.js';
import type { VerifierDb } from './types.js';

/** $1 org id, $2 session id, $3 subject, $4 route, $5 read at. */
const READ_PRESENTATION_RESULT = `
  with result as (
    select * from "verifier"."presentation_results" where org_id = $1 and session_id = $2::uuid
  ),
  recorded as (
    insert into "verifier"."presentation_reads" (session_id, org_id, subject, route, read_at)
    select session_id, org_id, $3, $4, $5::timestamptz from result
  )
  select * from result`;

/**
 * The session's presentation result, recorded as read by `reader` in the same
 * statement; undefined (and nothing recorded) when there is none. Every column of
 * `presentation_results` is decoded, so columns added to it come through.
 */
export async function readPresentationResultRecorded(
  db: VerifierDb,
  params: { orgId: string; sessionId: string; reader: PresentationReader },
): Promise<PresentationResultRow | undefined> {
  const { orgId, sessionId, reader } = params;
  const [row] = await runRawStatement(db, READ_PRESENTATION_RESULT, [orgId, sessionId, reader.subject, reader.route, reader.at.toISOString()]);
  return row ? decodeResultRow(row) : undefined;
}

function decodeResultRow(raw: Record<string, unknown>): PresentationResultRow {
  const row: Record<string, unknown> = {};
  for (const [key, column] of Object.entries(getTableColumns(presentationResults))) {
    const value = raw[column.name];
    row[key] = value === null || value === undefined ? null : column.mapFromDriverValue(value);
  }
  return row as PresentationResultRow;
}

/** Records a read made by another statement (the DC API answer, whose data comes from the verifying statement). */
export async function recordPresentationRead(db: VerifierDb, params: { orgId: string; sessionId: string; reader: PresentationReader }): Promise<void> {
  const { orgId, sessionId, reader } = params;
  await db.insert(presentationReads).values({ orgId, sessionId, subject: reader.subject, route: reader.route, readAt: reader.at });
}

/** A page of the session's reads, newest first (ties: the later record first). */
export async function listPresentationReads(
  db: VerifierDb,
  params: { orgId: string; sessionId: string; limit: number; offset: number },
): Promise<{ rows: PresentationReadRow[]; total: number }> {
  const r = presentationReads;
  const where = and(eq(r.orgId, params.orgId), eq(r.sessionId, params.sessionId));
  const rows = await db.select().from(r).where(where).orderBy(desc(r.readAt), desc(r.id)).limit(params.limit).offset(params.offset);
  const [total] = await db.select({ value: count() }).from(r).where(where);
  return { rows, total: total?.value ?? 0 };
}
