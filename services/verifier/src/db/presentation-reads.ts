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
  type PresentationReadRow,
  type PresentationResultRow,
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
 * $1 org id, $2 session id, $3 subject, $4 route, $5 read at, $6 read grace ends (read at + PRESENTATION_READ_GRACE_SECONDS).
 * The row comes back as it was before this statement (a CTE's update is not seen
 * by its siblings), whether or not it is readable, so the caller tells 410 from 409.
 */
const READ_PRESENTATION_RESULT = `
  with result as (
    select * from "verifier"."presentation_results" where org_id = $1 and session_id = $2::uuid
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
  select * from result`;

/**
 * The session's presentation result, in one statement: when it is readable at
 * `reader.at` it is recorded as read by `reader`, and a first read starts the
 * read grace (`read_expires_at` = `graceEndsAt`); a result past its lifetime is
 * answered (so the caller can say 410) but neither recorded nor stamped.
 * Undefined (and nothing recorded) when there is none. Every column of
 * `presentation_results` is decoded, so columns added to it come through.
 */
export async function readPresentationResultRecorded(
  db: VerifierDb,
  params: { orgId: string; sessionId: string; reader: PresentationReader; graceEndsAt: Date },
): Promise<PresentationResultRow | undefined> {
  const { orgId, sessionId, reader } = params;
  const [row] = await runRawStatement(db, READ_PRESENTATION_RESULT, [
    orgId,
    sessionId,
    reader.subject,
    reader.route,
    reader.at.toISOString(),
    params.graceEndsAt.toISOString(),
  ]);
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
