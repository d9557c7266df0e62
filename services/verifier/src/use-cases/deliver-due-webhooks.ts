import { randomUUID } from 'node:crypto';
import type { Clock, Logger } from '@tessera/service-kit';
import type { KeyEncryptionKey } from '../crypto/key-encryption.js';
import { webhookSecretContext } from '../crypto/sealing-contexts.js';
import { signWebhook } from '../crypto/webhook-signature.js';
import { claimDueDeliveries, recordWebhookAttempt, type ClaimedDelivery } from '../db/webhook-deliveries.js';
import type { VerifierDb } from '../db/types.js';
import { webhookEventBody } from '../domain/webhook-events.js';
import { nextWebhookAttempt, type WebhookRetryPolicy } from '../domain/webhook-retry.js';
import type { WebhookSender, WebhookSendOutcome } from '../webhooks/create-webhook-sender.js';
import type { VerifierMetrics } from '../metrics/verifier-metrics.js';

export interface DeliverDueWebhooksDeps {
  db: VerifierDb;
  clock: Clock;
  keyEncryptionKey: KeyEncryptionKey;
  logger: Logger;
  send: WebhookSender;
  retry: WebhookRetryPolicy;
  /** How long a claim holds a delivery: longer than an attempt can take (its timeout) plus recording it. */
  claimMs: number;
  /** Deliveries claimed (and sent concurrently) per run. */
  batchSize: number;
  metrics: Pick<VerifierMetrics, 'countWebhookAttempt'>;
}

/**
 * The webhook worker (one run; `jobs/` repeats it on every replica, and wakes it
 * when a session ends): claims the due deliveries no other replica holds, POSTs
 * each signed per Standard Webhooks, and records every attempt with the
 * delivery's next state — delivered on any 2xx, otherwise retried with backoff
 * (`domain/webhook-retry.ts`) until the retry period ends, then failed. All state
 * is in PostgreSQL: a replica that stops mid-way loses nothing (an unrecorded
 * claim lapses and another replica sends again — at least once). Answers whether
 * the batch was full (more may be due).
 */
export async function deliverDueWebhooks(
  deps: DeliverDueWebhooksDeps,
  input: { signal?: AbortSignal } = {},
): Promise<boolean> {
  const now = deps.clock();
  const claimToken = randomUUID();
  const claimed = await claimDueDeliveries(deps.db, {
    now,
    lockedUntil: new Date(now.getTime() + deps.claimMs),
    claimToken,
    limit: deps.batchSize,
  });
  // Every delivery finishes (and is recorded) before the run ends, even when another one's record failed.
  const settled = await Promise.allSettled(
    claimed.map((delivery) => deliverOne(deps, delivery, claimToken, input.signal)),
  );
  const failed = settled.find((result): result is PromiseRejectedResult => result.status === 'rejected');
  if (failed) throw failed.reason;
  return claimed.length === deps.batchSize;
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
