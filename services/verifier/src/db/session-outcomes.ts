// How a wallet's answer ends a session. The first answer wins: every transition
// is one conditional UPDATE on an open, unexpired session, so a concurrent
// answer that comes second matches no row and changes nothing.
import { and, eq, gt, inArray, sql } from 'drizzle-orm';
import { preparedFor, runRawStatement } from '@tessera/service-kit';
import { OPEN_STATES } from '../domain/session-state.js';
import { presentationResults, presentationSessions, type PresentationResultRow, type SessionRow } from './schema.js';
import type { VerifierDb } from './types.js';

export interface VerifiedOutcome {
  presentations: Array<Record<string, unknown>>;
  credentialSets?: Array<Record<string, unknown>>;
}

function openAndUnexpired(id: string, now: Date) {
  return and(eq(presentationSessions.id, id), inArray(presentationSessions.state, [...OPEN_STATES]), gt(presentationSessions.expiresAt, now));
}

/**
 * `ResponseVerified` plus the result, in one statement (atomic, one round trip):
 * the result row exists exactly when the session reads verified, and so does
 * the hash of the `response_code` its redirect carries (same-device flows).
 * Answers the rows as written — the session as read by the caller with the
 * new state — or undefined when another answer won (nothing is written then).
 */
/** $1 response code hash, $2 now, $3 session id, $4 presentations (JSON), $5 credential sets (JSON or null). */
const MARK_RESPONSE_VERIFIED = `
  with settled as (
    update "verifier"."presentation_sessions"
    set state = 'ResponseVerified', error_code = null, error_message = null, response_code_hash = $1, updated_at = $2::timestamptz
    where id = $3::uuid and state in (${OPEN_STATES.map((state) => `'${state}'`).join(', ')}) and expires_at > $2::timestamptz
    returning id, org_id
  )
  insert into "verifier"."presentation_results" (session_id, org_id, verified_at, presentations, credential_sets)
  select id, org_id, $2::timestamptz, $4::jsonb, $5::jsonb from settled
  returning session_id`;

export async function markResponseVerified(
  db: VerifierDb,
  params: { session: SessionRow; now: Date; outcome: VerifiedOutcome; responseCodeHash?: string },
): Promise<{ session: SessionRow; result: PresentationResultRow } | undefined> {
  const { session, now, outcome } = params;
  const at = now.toISOString();
  const responseCodeHash = params.responseCodeHash ?? null;
  const credentialSets = outcome.credentialSets ?? null;
  const written = await runRawStatement(db, MARK_RESPONSE_VERIFIED, [
    responseCodeHash,
    at,
    session.id,
    JSON.stringify(outcome.presentations),
    credentialSets === null ? null : JSON.stringify(credentialSets),
  ]);
  if (written.length === 0) return undefined;
  return {
    session: { ...session, state: 'ResponseVerified', errorCode: null, errorMessage: null, responseCodeHash, updatedAt: now },
    result: { sessionId: session.id, orgId: session.orgId, verifiedAt: now, presentations: outcome.presentations, credentialSets },
  };
}

/** `Error` with a code and message (failed verification, wallet error). Undefined when another answer won. */
export async function markResponseFailed(db: VerifierDb, params: { id: string; now: Date; code: string; message: string }): Promise<SessionRow | undefined> {
  const [session] = await db
    .update(presentationSessions)
    .set({ state: 'Error', errorCode: params.code, errorMessage: params.message, updatedAt: params.now })
    .where(openAndUnexpired(params.id, params.now))
    .returning();
  return session;
}

export async function findPresentationResult(db: VerifierDb, params: { orgId: string; sessionId: string }): Promise<PresentationResultRow | undefined> {
  const [row] = await selectPresentationResult(db).execute(params);
  return row;
}

/** Read whenever a relying party reads a result: prepared once per database handle. */
const selectPresentationResult = preparedFor((db: VerifierDb) =>
  db
    .select()
    .from(presentationResults)
    .where(and(eq(presentationResults.orgId, sql.placeholder('orgId')), eq(presentationResults.sessionId, sql.placeholder('sessionId'))))
    .prepare('find_presentation_result'),
);
