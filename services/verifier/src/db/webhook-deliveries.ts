// Webhook delivery (outbox) queries. Tenant scoping: the management reads and
// writes take `orgId` and the webhook's id; the worker's claim and record work
// across organisations by design (a replica delivers every organisation's events),
// each row carrying its own webhook.
import { and, count, desc, eq, inArray, isNull, lt, lte, ne, or, sql } from 'drizzle-orm';
import { runRawStatement } from '@tessera/service-kit';
import {
  webhookDeliveries,
  webhookDeliveryAttempts,
  webhooks,
  type WebhookDeliveryAttemptRow,
  type WebhookDeliveryRow,
} from './schema.js';
import type { VerifierDb } from './types.js';

/** A delivery a worker claimed, with where and how to send it. */
export type ClaimedDelivery = Pick<
  WebhookDeliveryRow,
  | 'id'
  | 'webhookId'
  | 'orgId'
  | 'sessionId'
  | 'publicVerifierId'
  | 'eventType'
  | 'sessionState'
  | 'occurredAt'
  | 'retryFrom'
  | 'retryCount'
> & { url: string; encryptedSecret: string };

/** The host (and port) of a webhook URL in SQL, lower-cased: the target the per-target cap counts. */
/**
 * The channel PostgreSQL notifies when a delivery is written or made pending again
 * (the triggers of migration 0015), as the writing transaction commits.
 */
export const WEBHOOK_DELIVERIES_CHANNEL = 'verifier_webhook_deliveries';

const TARGET_OF_URL = `lower(substring(w.url from '^[A-Za-z][A-Za-z0-9+.-]*://([^/?#]*)'))`;

/**
 * $1 now, $2 cap per target, $3 cap per organisation, $4 limit, $5 rows looked at per organisation.
 * Which due deliveries a claim takes, fairly: each organisation's oldest due rows ($5 at
 * most, so one organisation's backlog never hides another's; never a first attempt to a
 * webhook while one of its deliveries waits for a retry), less those whose target or
 * organisation already has its cap in flight (claimed and not yet recorded, on any
 * replica); then round-robin — every organisation's first eligible row before any
 * organisation's second — oldest first within a round. Every CTE is materialized, so the
 * limit is applied once (a subquery with LIMIT … SKIP LOCKED that the planner re-runs per
 * row can take more rows than its limit); the rows are then locked, skipping any another
 * replica locked meanwhile. One more row, with a null id, says that some delivery is
 * pending at all (due or not, claimed or not): without it the worker may sleep until a
 * delivery is written (`WEBHOOK_DELIVERIES_CHANNEL`).
 */
const PICK_DUE = `
  with orgs as materialized (
    select distinct org_id from "verifier"."webhook_deliveries"
    where status = 'pending' and next_attempt_at <= $1::timestamptz
  ),
  due as materialized (
    select x.* from orgs cross join lateral (
      select d.id, d.org_id, d.next_attempt_at, ${TARGET_OF_URL} as target
      from "verifier"."webhook_deliveries" d join "verifier"."webhooks" w on w.id = d.webhook_id
      where d.org_id = orgs.org_id and d.status = 'pending' and d.next_attempt_at <= $1::timestamptz
        and (d.locked_until is null or d.locked_until <= $1::timestamptz)
        -- A webhook backing off (a delivery waits for its retry) gets no new delivery tried meanwhile.
        and not (d.retry_count = 0 and exists (
          select 1 from "verifier"."webhook_deliveries" b
          where b.webhook_id = d.webhook_id and b.status = 'pending' and b.retry_count > 0
            and b.next_attempt_at > $1::timestamptz))
      order by d.next_attempt_at, d.id
      limit $5::integer
    ) x
  ),
  busy as materialized (
    select d.org_id, ${TARGET_OF_URL} as target
    from "verifier"."webhook_deliveries" d join "verifier"."webhooks" w on w.id = d.webhook_id
    where d.status = 'pending' and d.locked_until > $1::timestamptz
  ),
  ranked as materialized (
    select due.id, due.next_attempt_at,
      row_number() over (partition by due.target order by due.next_attempt_at, due.id)
        + (select count(*) from busy where busy.target = due.target) as target_slot,
      row_number() over (partition by due.org_id order by due.next_attempt_at, due.id)
        + (select count(*) from busy where busy.org_id = due.org_id) as org_slot
    from due
  ),
  picked as materialized (
    select id from ranked where target_slot <= $2::integer and org_slot <= $3::integer
    order by org_slot, next_attempt_at, id
    limit $4::integer
  ),
  claimable as (
    select d.id from "verifier"."webhook_deliveries" d
    where d.id in (select id from picked) and d.status = 'pending' and d.next_attempt_at <= $1::timestamptz
      and (d.locked_until is null or d.locked_until <= $1::timestamptz)
    for update of d skip locked
  )
  select id from claimable
  union all
  select null where exists (select 1 from "verifier"."webhook_deliveries" where status = 'pending')`;

/** How many due rows of each organisation a claim looks at, per row it may take. */
const LOOK_AHEAD = 4;

/**
 * Claims at most `limit` due pending deliveries for this worker until `lockedUntil`,
 * fairly across organisations and within the in-flight caps per target (the URL's host)
 * and per organisation (`PICK_DUE`): rows locked FOR UPDATE SKIP LOCKED, so two replicas
 * claiming together never take the same row, and marked with `claimToken` so only this
 * claim writes their outcome. A claim that is never completed (the replica died) lapses
 * at `lockedUntil`, and another replica takes the row. `anyPending` is false only when no
 * delivery at all is pending (the same statement looks).
 */
export async function claimDueDeliveries(
  db: VerifierDb,
  params: {
    now: Date;
    lockedUntil: Date;
    claimToken: string;
    limit: number;
    perTarget: number;
    perOrganisation: number;
  },
): Promise<{ claimed: ClaimedDelivery[]; anyPending: boolean }> {
  if (params.limit <= 0) return { claimed: [], anyPending: true };
  const d = webhookDeliveries;
  return db.transaction(async (tx) => {
    const rows = await runRawStatement<{ id: string | null }>(tx, PICK_DUE, [
      params.now.toISOString(),
      params.perTarget,
      params.perOrganisation,
      params.limit,
      params.limit * LOOK_AHEAD,
    ]);
    const picked = rows.flatMap(({ id }) => (id === null ? [] : [id]));
    const anyPending = rows.length > 0;
    if (picked.length === 0) return { claimed: [], anyPending };
    const claimed = await tx
      .update(d)
      .set({ lockedUntil: params.lockedUntil, claimToken: params.claimToken })
      .from(webhooks)
      .where(and(inArray(d.id, picked), eq(webhooks.id, d.webhookId)))
      .returning({
        id: d.id,
        webhookId: d.webhookId,
        orgId: d.orgId,
        sessionId: d.sessionId,
        publicVerifierId: d.publicVerifierId,
        eventType: d.eventType,
        sessionState: d.sessionState,
        occurredAt: d.occurredAt,
        retryFrom: d.retryFrom,
        retryCount: d.retryCount,
        url: webhooks.url,
        encryptedSecret: webhooks.encryptedSecret,
      });
    return { claimed, anyPending };
  });
}

/**
 * Per-target backoff: after a failed attempt, the webhook's other pending deliveries
 * that no claim holds wait until `after` (the failed one's next attempt, plus a little:
 * that one goes first), so a target that fails is probed by one delivery at a time, with
 * that delivery's growing backoff, instead of by its whole queue (deliveries written
 * later wait too: `PICK_DUE` tries none while one waits for its retry). Answers how many moved.
 */
export async function deferWebhookDeliveries(
  db: VerifierDb,
  params: { webhookId: string; exceptId: string; after: Date; now: Date },
): Promise<number> {
  const d = webhookDeliveries;
  const moved = await db
    .update(d)
    .set({ nextAttemptAt: params.after })
    .where(
      and(
        eq(d.webhookId, params.webhookId),
        eq(d.status, 'pending'),
        ne(d.id, params.exceptId),
        lt(d.nextAttemptAt, params.after),
        or(isNull(d.lockedUntil), lte(d.lockedUntil, params.now)),
      ),
    )
    .returning({ id: d.id });
  return moved.length;
}

export interface RecordWebhookAttemptParams {
  deliveryId: string;
  claimToken: string;
  attempt: { attemptedAt: Date; durationMs: number; statusCode?: number; error?: string; succeeded: boolean };
  /** The delivery after this attempt. */
  status: 'pending' | 'delivered' | 'failed';
  nextAttemptAt: Date;
  deliveredAt: Date | null;
  retryCount: number;
}

/** $1 delivery, $2 attempted at, $3 duration, $4 status code, $5 error, $6 succeeded, $7 status, $8 next attempt, $9 delivered at, $10 retry count, $11 claim token. */
const RECORD_ATTEMPT = `
  with attempt as (
    insert into "verifier"."webhook_delivery_attempts" (delivery_id, attempted_at, duration_ms, status_code, error, succeeded)
    select id, $2::timestamptz, $3::integer, $4::integer, $5::text, $6::boolean from "verifier"."webhook_deliveries" where id = $1::uuid
  ),
  settled as (
    update "verifier"."webhook_deliveries"
    set status = $7::text, next_attempt_at = $8::timestamptz, delivered_at = coalesce($9::timestamptz, delivered_at), retry_count = $10::integer,
        locked_until = null, claim_token = null
    where id = $1::uuid and claim_token = $11::uuid
    returning id
  )
  select exists (select 1 from settled) as settled`;

/**
 * Records one attempt and, when this claim still holds the row, the delivery's
 * new state, in one statement. The attempt is kept even when the claim lapsed
 * (the POST happened); the state is then left to the claim that holds it. A
 * delivery deleted meanwhile (its webhook was) records nothing. Answers whether
 * the state was written.
 */
export async function recordWebhookAttempt(db: VerifierDb, params: RecordWebhookAttemptParams): Promise<boolean> {
  const { attempt } = params;
  const [row] = await runRawStatement<{ settled: boolean }>(db, RECORD_ATTEMPT, [
    params.deliveryId,
    attempt.attemptedAt.toISOString(),
    Math.max(0, Math.round(attempt.durationMs)),
    attempt.statusCode ?? null,
    attempt.error ?? null,
    attempt.succeeded,
    params.status,
    params.nextAttemptAt.toISOString(),
    params.deliveredAt?.toISOString() ?? null,
    params.retryCount,
    params.claimToken,
  ]);
  return row?.settled === true;
}

/** Attempts listed per delivery: the most recent ones. */
export const ATTEMPTS_LISTED = 50;

export type ListedDelivery = WebhookDeliveryRow & { attemptCount: number; attempts: WebhookDeliveryAttemptRow[] };

/**
 * A page of the webhook's deliveries (or the one named by `id`), newest first,
 * each with its last `ATTEMPTS_LISTED` attempts (oldest first) and their count.
 */
export async function listWebhookDeliveries(
  db: VerifierDb,
  params: { orgId: string; webhookId: string; id?: string; limit: number; offset: number },
): Promise<{ rows: ListedDelivery[]; total: number }> {
  const d = webhookDeliveries;
  const a = webhookDeliveryAttempts;
  const where = and(
    eq(d.orgId, params.orgId),
    eq(d.webhookId, params.webhookId),
    params.id === undefined ? undefined : eq(d.id, params.id),
  );
  const rows = await db
    .select()
    .from(d)
    .where(where)
    .orderBy(desc(d.createdAt), desc(d.id))
    .limit(params.limit)
    .offset(params.offset);
  const [total] = await db.select({ value: count() }).from(d).where(where);
  if (rows.length === 0) return { rows: [], total: total?.value ?? 0 };
  const ranked = db
    .select({
      id: a.id,
      deliveryId: a.deliveryId,
      attemptedAt: a.attemptedAt,
      durationMs: a.durationMs,
      statusCode: a.statusCode,
      error: a.error,
      succeeded: a.succeeded,
      fromLast: sql<number>`row_number() over (partition by ${a.deliveryId} order by ${a.id} desc)`.as('from_last'),
      total: sql<number>`count(*) over (partition by ${a.deliveryId})`.as('total'),
    })
    .from(a)
    .where(
      inArray(
        a.deliveryId,
        rows.map((row) => row.id),
      ),
    )
    .as('ranked');
  const attempts = await db.select().from(ranked).where(lte(ranked.fromLast, ATTEMPTS_LISTED)).orderBy(ranked.id);
  return {
    rows: rows.map((row) => {
      const own = attempts.filter((attempt) => attempt.deliveryId === row.id);
      return {
        ...row,
        attemptCount: Number(own[0]?.total ?? 0),
        attempts: own.map(({ fromLast: _fromLast, total: _total, ...attempt }) => attempt),
      };
    }),
    total: total?.value ?? 0,
  };
}

/**
 * Sends a delivery again: pending and due at `now`, with a new retry period and
 * no claim, whatever its state (a delivered event is sent once more, a failed one
 * retried again). Answers the row, or undefined when the webhook has no such delivery.
 */
export async function requeueWebhookDelivery(
  db: VerifierDb,
  params: { orgId: string; webhookId: string; id: string; now: Date },
): Promise<WebhookDeliveryRow | undefined> {
  const d = webhookDeliveries;
  const [row] = await db
    .update(d)
    .set({
      status: 'pending',
      nextAttemptAt: params.now,
      retryFrom: params.now,
      retryCount: 0,
      lockedUntil: null,
      claimToken: null,
    })
    .where(and(eq(d.orgId, params.orgId), eq(d.webhookId, params.webhookId), eq(d.id, params.id)))
    .returning();
  return row;
}
