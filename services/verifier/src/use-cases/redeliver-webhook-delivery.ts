import { ErrorCode } from '@tessera/contracts';
import { type Clock, notFound } from '@tessera/service-kit';
import type { VerifierDb } from '../db/types.js';
import { listWebhookDeliveries, requeueWebhookDelivery, type ListedDelivery } from '../db/webhook-deliveries.js';
import { findVerifierWebhook } from './steps/find-verifier-webhook.js';

export interface RedeliverWebhookDeliveryDeps {
  db: VerifierDb;
  clock: Clock;
  /** Tells this replica's worker a delivery is due now (any replica's would take it on its next poll). */
  wakeDeliveries: () => void;
}

/**
 * Sends a delivery again, whatever its state: it becomes pending and due now, with
 * a fresh retry period; the event (and so `webhook-id`) is the same, so a
 * receiver that already has it can tell. Answers the delivery as queued.
 */
export async function redeliverWebhookDelivery(
  deps: RedeliverWebhookDeliveryDeps,
  input: { orgId: string; verifierId: string; deliveryId: string },
): Promise<ListedDelivery> {
  const { webhook } = await findVerifierWebhook(deps.db, input);
  // One transaction: the requeued row stays locked until the answer is read, so no worker
  // (which skips locked rows) sends it in between and the answer shows it as queued.
  const delivery = await deps.db.transaction(async (tx) => {
    const requeued = await requeueWebhookDelivery(tx, {
      orgId: input.orgId,
      webhookId: webhook.id,
      id: input.deliveryId,
      now: deps.clock(),
    });
    return requeued
      ? (
          await listWebhookDeliveries(tx, {
            orgId: input.orgId,
            webhookId: webhook.id,
            id: requeued.id,
            limit: 1,
            offset: 0,
          })
        ).rows[0]
      : undefined;
  });
  if (!delivery)
    throw notFound(
      `Verifier "${input.verifierId}"'s webhook has no delivery with this id.`,
      ErrorCode.WEBHOOK_DELIVERY_NOT_FOUND,
    );
  deps.wakeDeliveries();
  return delivery;
}
