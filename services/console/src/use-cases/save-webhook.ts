import type { PutWebhookBody, Webhook, WebhookWithSecret } from '@tessera/contracts';
import type { ServiceResult } from '../domain/service-problem.js';
import type { VerifierApi } from '../network/verifier-api.js';

export interface SaveWebhookDeps {
  verifier: Pick<VerifierApi, 'putWebhook'>;
}

/** Creates the verifier's webhook (answering its new secret, shown this once) or changes its address and events (the secret kept, not shown). */
export function saveWebhook(
  deps: SaveWebhookDeps,
  input: { token: string; orgId: string; verifierId: string; body: PutWebhookBody },
): Promise<ServiceResult<Webhook | WebhookWithSecret>> {
  return deps.verifier.putWebhook(input.token, input.orgId, input.verifierId, input.body);
}
