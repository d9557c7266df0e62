// Session expiry: open sessions past their end become Error/SESSION_EXPIRED, with their
// webhook events, in one statement per call (the sweeper on each replica, and a read that
// finds a session past its end).
import { runRawStatement } from '@tessera/service-kit';
import { OPEN_STATES } from '../domain/session-state.js';
import type { VerifierDb } from './types.js';
import { OUTBOX_SESSION_COLUMNS, webhookOutboxInsert } from './webhook-outbox.js';

export interface ExpireSessionsParams {
  /** One session, or all of an organisation's (both may be given); neither: every organisation's (the sweeper). */
  orgId?: string;
  id?: string;
  /** At most this many, oldest end first, skipping sessions another transaction holds (the sweeper on each replica). */
  limit?: number;
  now: Date;
  message: string;
}

/**
 * Persists expiry: open sessions past `expiresAt` become `Error`/SESSION_EXPIRED,
 * and their webhook events are written in the same statement (db/webhook-outbox.ts).
 * Their sealed decryption keys go with it, as when an answer settles a session.
 * The state condition makes each session expire once, whoever runs this first.
 * Returns the rows changed.
 */
export async function expireSessions(
  db: VerifierDb,
  params: ExpireSessionsParams,
): Promise<Array<{ id: string; orgId: string }>> {
  const text = expireSessionsText(params.orgId !== undefined, params.id !== undefined, params.limit !== undefined);
  const values: unknown[] = [params.now.toISOString(), params.message];
  if (params.orgId !== undefined) values.push(params.orgId);
  if (params.id !== undefined) values.push(params.id);
  if (params.limit !== undefined) values.push(params.limit);
  const rows = await runRawStatement<{ id: string; org_id: string }>(db, text, values);
  return rows.map((row) => ({ id: row.id, orgId: row.org_id }));
}

const expireSessionsTexts = new Map<string, string>();

/**
 * The expiry statement for one combination of filters, written once: $1 now, $2
 * message, then org id, session id and limit, each when given. With a limit, the
 * sessions are picked FOR UPDATE SKIP LOCKED, so replicas sweeping together share
 * the work instead of queueing on each other's rows.
 */
function expireSessionsText(byOrg: boolean, byId: boolean, limited: boolean): string {
  const key = `${byOrg}|${byId}|${limited}`;
  let text = expireSessionsTexts.get(key);
  if (!text) {
    let next = 3;
    const filters = [
      `state in (${OPEN_STATES.map((state) => `'${state}'`).join(', ')})`,
      'expires_at <= $1::timestamptz',
    ];
    if (byOrg) filters.push(`org_id = $${next++}`);
    if (byId) filters.push(`id = $${next++}::uuid`);
    const where = filters.join(' and ');
    const target = limited
      ? `id in (select id from "verifier"."presentation_sessions" where ${where} order by expires_at limit $${next} for update skip locked) and ${where}`
      : where;
    text = `with expired as (
        update "verifier"."presentation_sessions"
        set state = 'Error', error_code = 'SESSION_EXPIRED', error_message = $2,
          encrypted_encryption_key = null, encrypted_annex_c_key = null, updated_at = $1::timestamptz
        where ${target}
        returning ${OUTBOX_SESSION_COLUMNS}
      ),
      outboxed as (${webhookOutboxInsert('expired', 'expired', '$1::timestamptz')})
      select id, org_id from expired`;
    expireSessionsTexts.set(key, text);
  }
  return text;
}
