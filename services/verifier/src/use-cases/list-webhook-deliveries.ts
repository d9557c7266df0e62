import type { PageWindow } from '@tessera/service-kit';
import type { VerifierRow } from '../db/schema.js';
import type { VerifierDb } from '../db/types.js';
import { listWebhookDeliveries as listDeliveryRows, type ListedDelivery } from '../db/webhook-deliveries.js';
import { findVerifierWebhook } from './steps/find-verifier-webhook.js';

export interface ListWebhookDeliveriesDeps {
  db: VerifierDb;
}

/** A page of the verifier's webhook deliveries, newest first, with their attempts. */
export async function listWebhookDeliveries(
  deps: ListWebhookDeliveriesDeps,
  input: { orgId: string; verifierId: string; page: PageWindow },
): Promise<{ verifier: VerifierRow; rows: ListedDelivery[]; total: number }> {
  const { verifier, webhook } = await findVerifierWebhook(deps.db, input);
  const { rows, total } = await listDeliveryRows(deps.db, {
    orgId: input.orgId,
    webhookId: webhook.id,
    limit: input.page.pageSize,
    offset: input.page.offset,
  });
  return { verifier, rows, total };
}
