// The purge job's statements (use-cases/purge-personal-data.ts). Each is one
// bounded statement: it takes at most `limit` rows due at `now`, through the partial
// indexes on their deadlines (schema.ts), oldest first, skipping rows a request holds
// (SKIP LOCKED: the purge never waits on the hot path; a skipped row goes next run).
import { runRawStatement } from '@tessera/service-kit';
import type { VerifierDb } from './types.js';

/**
 * Key of the transaction-level advisory lock that makes one replica at a time the
 * purge runner. Transaction-level, not session-level: it cannot outlive the batch
 * that took it on a pooled connection, and a replica that dies mid-batch releases it
 * with its connection (the batch rolls back; the next runner redoes it).
 */
const PURGE_LOCK_KEY = 1_550_015_001;

/** True when this transaction now holds the purge lock; false when another replica's batch does. */
export async function tryLockPurge(tx: VerifierDb): Promise<boolean> {
  const [row] = await runRawStatement<{ locked: boolean }>(
    tx,
    'select pg_try_advisory_xact_lock($1::bigint) as locked',
    [PURGE_LOCK_KEY],
  );
  return row?.locked === true;
}

// The purge never reads or rewrites presentation data: it nulls the sealed columns
// (and the plain ones of rows stored before sealing). What stays is the plain
// `presentation_summary` written at verification, which holds no claim value.

/** $1 now, $2 limit. Read grace over: only the (sealed) retained view stays, or nothing of the data. */
const PURGE_READ_ONCE_CLAIMS = `
  with due as (
    select session_id from "verifier"."presentation_results"
    where claims_state = 'full' and read_expires_at <= $1::timestamptz
    order by read_expires_at
    limit $2
    for update skip locked
  )
  update "verifier"."presentation_results" r
  set sealed_presentations = null,
      presentations = null,
      sealed_credential_sets = case when r.sealed_retained_presentations is null then null else r.sealed_credential_sets end,
      credential_sets = null,
      claims_state = case when r.sealed_retained_presentations is null then 'purged' else 'retained' end,
      claims_purged_at = case when r.sealed_retained_presentations is null then $1::timestamptz else null end
  from due
  where r.session_id = due.session_id
  returning r.session_id`;

/** $1 now, $2 limit. Data lifetime over: no claim value is left. */
const PURGE_EXPIRED_CLAIMS = `
  with due as (
    select session_id from "verifier"."presentation_results"
    where claims_state <> 'purged' and data_expires_at <= $1::timestamptz
    order by data_expires_at
    limit $2
    for update skip locked
  )
  update "verifier"."presentation_results" r
  set sealed_presentations = null, sealed_credential_sets = null, sealed_retained_presentations = null,
      presentations = null, credential_sets = null, claims_state = 'purged', claims_purged_at = $1::timestamptz
  from due
  where r.session_id = due.session_id
  returning r.session_id`;

/**
 * $1 created before, $2 limit. Whole session records past retention, with their
 * result (cascade), and the organisations' session counts lowered in the same statement.
 */
const DELETE_RETIRED_SESSIONS = `
  with due as (
    select id from "verifier"."presentation_sessions"
    where created_at < $1::timestamptz
    order by created_at
    limit $2
    for update skip locked
  ),
  deleted as (
    delete from "verifier"."presentation_sessions" s using due where s.id = due.id returning s.org_id
  ),
  counted as (
    update "verifier"."session_counts" c set total = c.total - d.n
    from (select org_id, count(*) as n from deleted group by org_id) d
    where c.org_id = d.org_id
  )
  select count(*)::int as deleted from deleted`;

/** Claims not retained past their read grace, removed; answers how many results. */
export async function purgeReadOnceClaims(db: VerifierDb, params: { now: Date; limit: number }): Promise<number> {
  return (await runRawStatement(db, PURGE_READ_ONCE_CLAIMS, [params.now.toISOString(), params.limit])).length;
}

/** Every claim of results past their data lifetime, removed; answers how many results. */
export async function purgeExpiredClaims(db: VerifierDb, params: { now: Date; limit: number }): Promise<number> {
  return (await runRawStatement(db, PURGE_EXPIRED_CLAIMS, [params.now.toISOString(), params.limit])).length;
}

/** Sessions created before `createdBefore`, deleted; answers how many. */
export async function deleteRetiredSessions(
  db: VerifierDb,
  params: { createdBefore: Date; limit: number },
): Promise<number> {
  const [row] = await runRawStatement<{ deleted: number }>(db, DELETE_RETIRED_SESSIONS, [
    params.createdBefore.toISOString(),
    params.limit,
  ]);
  return Number(row?.deleted ?? 0);
}
