import type {
  Webhook,
  WebhookDelivery,
  WebhookDeliveryStatus,
  WebhookEventType,
  WebhookWithSecret,
} from '@tessera/contracts';
import type { VerifierRow, WebhookRow } from '../db/schema.js';
import type { ListedDelivery } from '../db/webhook-deliveries.js';
import { toWebhookEvent } from '../domain/webhook-events.js';

/** The webhook without its secret (GET, DELETE). */
export function toWebhook(verifier: VerifierRow, webhook: WebhookRow): Webhook {
  return {
    verifierId: verifier.verifierId,
    url: webhook.url,
    events: webhook.events as WebhookEventType[],
    createdAt: webhook.createdAt.toISOString(),
    updatedAt: webhook.updatedAt.toISOString(),
  };
}

/** The webhook with its secret: PUT and rotate-secret only. */
export function toWebhookWithSecret(result: {
  verifier: VerifierRow;
  webhook: WebhookRow;
  secret: string;
}): WebhookWithSecret {
  return { ...toWebhook(result.verifier, result.webhook), secret: result.secret };
}

export function toWebhookDelivery(delivery: ListedDelivery): WebhookDelivery {
  return {
    id: delivery.id,
    event: toWebhookEvent(delivery),
    status: delivery.status as WebhookDeliveryStatus,
    attemptCount: delivery.attemptCount,
    createdAt: delivery.createdAt.toISOString(),
    ...(delivery.status === 'pending' ? { nextAttemptAt: delivery.nextAttemptAt.toISOString() } : {}),
    ...(delivery.deliveredAt ? { deliveredAt: delivery.deliveredAt.toISOString() } : {}),
    attempts: delivery.attempts.map((attempt) => ({
      attemptedAt: attempt.attemptedAt.toISOString(),
      durationMs: attempt.durationMs,
      ...(attempt.statusCode !== null ? { statusCode: attempt.statusCode } : {}),
      ...(attempt.error !== null ? { error: attempt.error } : {}),
      succeeded: attempt.succeeded,
    })),
  };
}
