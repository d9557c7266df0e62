import type { WebhookWithSecret, PutWebhookBody } from '@tessera/contracts';
import type { ServiceResult } from '../domain/service-problem.js';
import type { VerifierApi } from '../network/verifier-api.js';

export interface SaveWebhookDeps {
  verifier: Pick<VerifierApi, 'putWebhook'>;
}

/** Creates the verifier's webhook (with a new secret) or changes its address and events (keeping the secret). */
export function saveWebhook(
  deps: SaveWebhookDeps,
  input: { token: string; orgId: string; verifierId: string; body: PutWebhookBody },
): Promise<ServiceResult<WebhookWithSecret>> {
  return deps.verifier.putWebhook(input.token, input.orgId, input.verifierId, input.body);
}
