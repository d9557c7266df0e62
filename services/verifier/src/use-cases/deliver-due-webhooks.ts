import { randomUUID } from 'node:crypto';
import type { Clock, Logger } from '@tessera/service-kit';
import type { KeyEncryptionKey } from '../crypto/key-encryption.js';
import { webhookSecretContext } from '../crypto/sealing-contexts.js';
import { signWebhook } from '../crypto/webhook-signature.js';
import {
  claimDueDeliveries,
  deferWebhookDeliveries,
  recordWebhookAttempt,
  type ClaimedDelivery,
} from '../db/webhook-deliveries.js';
import type { VerifierDb } from '../db/types.js';
import { webhookEventBody } from '../domain/webhook-events.js';
import { nextWebhookAttempt, type WebhookRetryPolicy } from '../domain/webhook-retry.js';
import type { WebhookSender, WebhookSendOutcome } from '../webhooks/create-webhook-sender.js';
import type { VerifierMetrics } from '../metrics/verifier-metrics.js';
import type { WebhookDeliverySlots } from '../state/webhook-delivery-slots.js';

export interface DeliverDueWebhooksDeps {
  db: VerifierDb;
  clock: Clock;
  keyEncryptionKey: KeyEncryptionKey;
  logger: Logger;
  send: WebhookSender;
  retry: WebhookRetryPolicy;
  /** How long a claim holds a delivery: longer than an attempt can take (its timeout) plus recording it. */
  claimMs: number;
  /** The replica's sending slots (WEBHOOK_CONCURRENCY): a run claims at most the free ones. */
  slots: WebhookDeliverySlots;
  /** Deliveries in flight at most, on all replicas together, per target (the URL's host) and per organisation. */
  perTarget: number;
  perOrganisation: number;
  metrics: Pick<VerifierMetrics, 'countWebhookAttempt'>;
}

/** A target's queued deliveries wait this much longer than its failed one's retry, so that one goes first. */
const DEFER_MARGIN_MS = 1000;

/**
 * The webhook worker (one run; `jobs/` repeats it on every replica, and wakes it
 * when a session ends or a slot frees): claims as many due deliveries as the replica
 * has free slots, fairly across organisations and within the caps per target and per
 * organisation (`claimDueDeliveries`), and starts each in a slot of its own without
 * waiting for it — no delivery waits for a slower one. Each is POSTed signed per
 * Standard Webhooks and its attempt recorded with the delivery's next state —
 * delivered on any 2xx, otherwise retried with backoff (`domain/webhook-retry.ts`)
 * until the retry period ends, then failed; after a failure the webhook's other
 * queued deliveries wait for that one's retry (per-target backoff). All state is in
 * PostgreSQL: a replica that stops mid-way loses nothing (an unrecorded claim lapses
 * and another replica sends again — at least once). Answers whether it took every
 * free slot (`more` may be due) and whether any delivery is pending at all (`anyPending`,
 * due or not: when none is, nothing can be claimed until one is written).
 */
export async function deliverDueWebhooks(
  deps: DeliverDueWebhooksDeps,
  input: { signal?: AbortSignal } = {},
): Promise<{ more: boolean; anyPending: boolean }> {
  const free = deps.slots.free();
  // Every slot sends: the next run comes as one frees.
  if (free === 0) return { more: false, anyPending: true };
  const now = deps.clock();
  const claimToken = randomUUID();
  const { claimed, anyPending } = await claimDueDeliveries(deps.db, {
    now,
    lockedUntil: new Date(now.getTime() + deps.claimMs),
    claimToken,
    limit: free,
    perTarget: deps.perTarget,
    perOrganisation: deps.perOrganisation,
  });
  for (const delivery of claimed) deps.slots.run(() => deliverOne(deps, delivery, claimToken, input.signal));
  return { more: claimed.length === free, anyPending };
}

async function deliverOne(
  deps: DeliverDueWebhooksDeps,
  delivery: ClaimedDelivery,
  claimToken: string,
  signal: AbortSignal | undefined,
): Promise<void> {
  const attemptedAt = deps.clock();
  const outcome = await send(deps, delivery, attemptedAt, signal);
  const endedAt = deps.clock();
  const succeeded = outcome.statusCode !== undefined && outcome.statusCode >= 200 && outcome.statusCode < 300;
  // An attempt abandoned because this replica stops is not the receiver's failure: due again at once, for another replica.
  const failures = succeeded || outcome.abandoned ? delivery.retryCount : delivery.retryCount + 1;
  const next = succeeded
    ? undefined
    : outcome.abandoned
      ? ({ giveUp: false, at: endedAt } as const)
      : nextWebhookAttempt({ policy: deps.retry, failedAt: endedAt, retryFrom: delivery.retryFrom, failures });
  const status = succeeded ? 'delivered' : next?.giveUp === false ? 'pending' : 'failed';
  // Before the record: while this claim still counts as in flight for the target, no other
  // claim can take the webhook's next delivery in between.
  if (!succeeded && !outcome.abandoned && next && !next.giveUp)
    await deferWebhookDeliveries(deps.db, {
      webhookId: delivery.webhookId,
      exceptId: delivery.id,
      after: new Date(next.at.getTime() + DEFER_MARGIN_MS),
      now: endedAt,
    });
  await recordWebhookAttempt(deps.db, {
    deliveryId: delivery.id,
    claimToken,
    attempt: {
      attemptedAt,
      succeeded,
      durationMs: outcome.durationMs,
      ...(outcome.statusCode !== undefined ? { statusCode: outcome.statusCode } : {}),
      ...(outcome.error ? { error: outcome.error } : {}),
    },
    status,
    nextAttemptAt: next && !next.giveUp ? next.at : endedAt,
    deliveredAt: succeeded ? attemptedAt : null,
    retryCount: failures,
  });
  deps.metrics.countWebhookAttempt(status === 'pending' ? 'retrying' : status);
  // The target's origin only: a URL's path or query may carry the receiver's token.
  const facts = {
    deliveryId: delivery.id,
    eventType: delivery.eventType,
    orgId: delivery.orgId,
    target: originOf(delivery.url),
    statusCode: outcome.statusCode,
    error: outcome.error,
    // The operator's view (e.g. the address a name resolved to); never stored or shown to the tenant.
    detail: outcome.detail,
    durationMs: outcome.durationMs,
    status,
  };
  if (succeeded) deps.logger.info(facts, 'webhook delivered');
  else
    deps.logger.warn(
      { ...facts, nextAttemptAt: next && !next.giveUp ? next.at.toISOString() : undefined },
      status === 'failed' ? 'webhook delivery failed for good' : 'webhook attempt failed; retrying',
    );
}

/** Signs with the webhook's current secret (opened now, never kept) and POSTs. */
async function send(
  deps: DeliverDueWebhooksDeps,
  delivery: ClaimedDelivery,
  attemptedAt: Date,
  signal: AbortSignal | undefined,
): Promise<WebhookSendOutcome> {
  let secret: string;
  try {
    secret = deps.keyEncryptionKey.open(delivery.encryptedSecret, webhookSecretContext(delivery.webhookId));
  } catch {
    return {
      error: 'not sent: the verifier could not sign the event',
      detail: 'the webhook secret does not open with the configured KEY_ENCRYPTION_KEY',
      durationMs: 0,
    };
  }
  const body = webhookEventBody(delivery);
  const timestamp = Math.floor(attemptedAt.getTime() / 1000);
  const headers = {
    'webhook-id': delivery.id,
    'webhook-timestamp': String(timestamp),
    'webhook-signature': signWebhook({ secret, id: delivery.id, timestamp, body }),
  };
  return deps.send({ url: delivery.url, headers, body }, signal ? { signal } : {});
}

function originOf(url: string): string {
  try {
    return new URL(url).origin;
  } catch {
    return '(invalid URL)';
  }
}
