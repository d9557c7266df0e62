import type { WebhookWithSecret } from '@tessera/contracts';
import type { ServiceResult } from '../domain/service-problem.js';
import type { VerifierApi } from '../network/verifier-api.js';

export interface RotateWebhookSecretDeps {
  verifier: Pick<VerifierApi, 'rotateWebhookSecret'>;
}

/** A new signing secret for the webhook; the old one stops at once. */
export function rotateWebhookSecret(
  deps: RotateWebhookSecretDeps,
  input: { token: string; orgId: string; verifierId: string },
): Promise<ServiceResult<WebhookWithSecret>> {
  return deps.verifier.rotateWebhookSecret(input.token, input.orgId, input.verifierId);
}
