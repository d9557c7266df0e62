import type { WebhookDelivery } from '@tessera/contracts';
import type { ServiceResult } from '../domain/service-problem.js';
import type { VerifierApi } from '../network/verifier-api.js';

export interface RedeliverWebhookDeliveryDeps {
  verifier: Pick<VerifierApi, 'redeliverWebhookDelivery'>;
}

/** Sends one delivery again (same event id, so receivers deduplicate), with a fresh retry period. */
export function redeliverWebhookDelivery(
  deps: RedeliverWebhookDeliveryDeps,
  input: { token: string; orgId: string; verifierId: string; deliveryId: string },
): Promise<ServiceResult<WebhookDelivery>> {
  return deps.verifier.redeliverWebhookDelivery(input.token, input.orgId, input.verifierId, input.deliveryId);
}
