import type { Webhook } from '@tessera/contracts';
import type { ServiceResult } from '../domain/service-problem.js';
import type { VerifierApi } from '../network/verifier-api.js';

export interface DeleteWebhookDeps {
  verifier: Pick<VerifierApi, 'deleteWebhook'>;
}

/** Removes the verifier's webhook and its deliveries. */
export function deleteWebhook(
  deps: DeleteWebhookDeps,
  input: { token: string; orgId: string; verifierId: string },
): Promise<ServiceResult<Webhook>> {
  return deps.verifier.deleteWebhook(input.token, input.orgId, input.verifierId);
}
