// How a wallet's answer ends a session. The first answer wins: every transition
// is one conditional UPDATE on an open, unexpired session, so a concurrent
// answer that comes second matches no row and changes nothing.
//
// Each transition also writes the webhook outbox in the same statement
// (db/webhook-outbox.ts): the event exists exactly when the change committed.
//
// Each also drops the session's sealed decryption keys (the JWE key of encrypted modes,
// the HPKE key of org-iso-mdoc): once the session is answered no answer is decrypted
// again, and a key together with the ciphertext (which the relying party holds in the
// DC API flow) would recover the response past its lifetime.
import { runRawStatement } from '@tessera/service-kit';
import { OPEN_STATES } from '../domain/session-state.js';
import type { SessionRow } from './schema.js';
import { decodeSessionRow } from './session-rows.js';
import type { VerifierDb } from './types.js';
import { OUTBOX_SESSION_COLUMNS, webhookOutboxInsert } from './webhook-outbox.js';

export interface VerifiedOutcome {
  presentations: Array<Record<string, unknown>>;
  credentialSets?: Array<Record<string, unknown>>;
}

/** A verified outcome's columns as stored: sealed with the organisation's data key (use-cases/steps/presentation-data.ts). */
export interface SealedOutcome {
  presentations: string;
  credentialSets: string | null;
  /** The presentations with only the claims retained past the read grace; null: none is. */
  retainedPresentations: string | null;
}

/** When the result's personal data goes, and what stays after (domain/presentation-data.ts). */
export interface PresentationDataLifetime {
  /** What was verified, without claim values or status: plain, it survives the purge. */
  summary: Array<Record<string, unknown>>;
  dataExpiresAt: Date;
  /** Set when the answer itself is the first read (the DC API call returns the claims). */
  readExpiresAt: Date | null;
}

const OPEN_STATE_LIST = OPEN_STATES.map((state) => `'${state}'`).join(', ');

/**
 * `ResponseVerified` plus the result, in one statement (atomic, one round trip):
 * the result row exists exactly when the session reads verified, and so does
 * the hash of the `response_code` its redirect carries (same-device flows).
 * Answers the rows as written — the session as read by the caller with the
 * new state — or undefined when another answer won (nothing is written then).
 */
/**
 * $1 response code hash, $2 now, $3 session id, $4 sealed presentations, $5 sealed credential sets (or null),
 * $6 sealed retained presentations (or null), $7 summary (JSON), $8 data expires at, $9 read expires at (or null).
 */
const MARK_RESPONSE_VERIFIED = `
  with settled as (
    update "verifier"."presentation_sessions"
    set state = 'ResponseVerified', error_code = null, error_message = null, response_code_hash = $1, encrypted_encryption_key = null, encrypted_annex_c_key = null, updated_at = $2::timestamptz
    where id = $3::uuid and state in (${OPEN_STATE_LIST}) and expires_at > $2::timestamptz
    returning ${OUTBOX_SESSION_COLUMNS}
  ),
  outboxed as (${webhookOutboxInsert('settled', 'verified', '$2::timestamptz')})
  insert into "verifier"."presentation_results"
    (session_id, org_id, verified_at, sealed_presentations, sealed_credential_sets, sealed_retained_presentations, presentation_summary, data_expires_at, read_expires_at)
  select id, org_id, $2::timestamptz, $4, $5, $6, $7::jsonb, $8::timestamptz, $9::timestamptz from settled
  returning session_id`;

/** A stored result in the clear: as `markResponseVerified` stored it (the caller's outcome, never read back), or as opened on read. */
export interface PresentationResult {
  sessionId: string;
  orgId: string;
  verifiedAt: Date;
  presentations: Array<Record<string, unknown>>;
  credentialSets: Array<Record<string, unknown>> | null;
}

export async function markResponseVerified(
  db: VerifierDb,
  params: {
    session: SessionRow;
    now: Date;
    outcome: VerifiedOutcome;
    sealed: SealedOutcome;
    lifetime: PresentationDataLifetime;
    responseCodeHash?: string;
  },
): Promise<{ session: SessionRow; result: PresentationResult } | undefined> {
  const { session, now, outcome, sealed, lifetime } = params;
  const at = now.toISOString();
  const responseCodeHash = params.responseCodeHash ?? null;
  const credentialSets = outcome.credentialSets ?? null;
  const written = await runRawStatement(db, MARK_RESPONSE_VERIFIED, [
    responseCodeHash,
    at,
    session.id,
    sealed.presentations,
    sealed.credentialSets,
    sealed.retainedPresentations,
    JSON.stringify(lifetime.summary),
    lifetime.dataExpiresAt.toISOString(),
    lifetime.readExpiresAt?.toISOString() ?? null,
  ]);
  if (written.length === 0) return undefined;
  return {
    session: {
      ...session,
      state: 'ResponseVerified',
      errorCode: null,
      errorSubject: null,
      errorMessage: null,
      responseCodeHash,
      encryptedEncryptionKey: null,
      encryptedAnnexCKey: null,
      updatedAt: now,
    },
    result: {
      sessionId: session.id,
      orgId: session.orgId,
      verifiedAt: now,
      presentations: outcome.presentations,
      credentialSets,
    },
  };
}

/** $1 error code, $2 error message, $3 now, $4 session id, $5 error subject. */
const MARK_RESPONSE_FAILED = `
  with settled as (
    update "verifier"."presentation_sessions"
    set state = 'Error', error_code = $1, error_message = $2, error_subject = $5, encrypted_encryption_key = null, encrypted_annex_c_key = null, updated_at = $3::timestamptz
    where id = $4::uuid and state in (${OPEN_STATE_LIST}) and expires_at > $3::timestamptz
    returning *
  ),
  outboxed as (${webhookOutboxInsert('settled', 'failed', '$3::timestamptz')})
  select * from settled`;

/**
 * `Error` with a code, its subject (the credential query id, or the wallet's registered
 * error code) and the message made of them (failed verification, wallet error).
 * Undefined when another answer won.
 */
export async function markResponseFailed(
  db: VerifierDb,
  params: { id: string; now: Date; code: string; subject?: string; message: string },
): Promise<SessionRow | undefined> {
  const [row] = await runRawStatement(db, MARK_RESPONSE_FAILED, [
    params.code,
    params.message,
    params.now.toISOString(),
    params.id,
    params.subject ?? null,
  ]);
  return row ? decodeSessionRow(row) : undefined;
}
