// The webhook outbox, written by the statements that end sessions
// (db/session-outcomes.ts, db/session-expiry.ts expireSessions): one CTE of theirs, so
// the event row commits exactly when the state change does, in the same round
// trip. Tenant scoping: a session's events go only to the webhook of its own
// verifier (`verifier_ref`) in its own organisation.
import { WEBHOOK_EVENT_OF } from '../domain/webhook-events.js';

/** How a session ended, named as the event type the webhook subscribes to. */
export type SessionEnding = keyof typeof WEBHOOK_EVENT_OF;

/**
 * SQL of a CTE body that inserts one pending delivery per changed session whose
 * verifier has a webhook subscribed to `ending`'s event type (none otherwise).
 * `changed` names a CTE returning the changed sessions' `id, org_id,
 * verifier_ref, public_verifier_id, state`; `now` is the SQL of the statement's
 * time parameter (e.g. `$2::timestamptz`), the event's `occurredAt`. The text is
 * fixed (built from constants when the module loads), never from input.
 */
export function webhookOutboxInsert(changed: string, ending: SessionEnding, now: string): string {
  const eventType = `'${WEBHOOK_EVENT_OF[ending]}'`;
  return `insert into "verifier"."webhook_deliveries"
      (id, webhook_id, org_id, session_id, public_verifier_id, event_type, session_state, occurred_at, status, next_attempt_at, retry_from, created_at)
    select gen_random_uuid(), w.id, c.org_id, c.id, c.public_verifier_id, ${eventType}, c.state, ${now}, 'pending', ${now}, ${now}, ${now}
    from ${changed} c join "verifier"."webhooks" w on w.verifier_ref = c.verifier_ref and w.org_id = c.org_id
    where ${eventType} = any(w.events)`;
}

/** What `changed` must return for `webhookOutboxInsert`. */
export const OUTBOX_SESSION_COLUMNS = 'id, org_id, verifier_ref, public_verifier_id, state';
