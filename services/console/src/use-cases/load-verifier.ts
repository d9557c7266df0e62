import type { PageOf, RegistrationCertificate, Verifier, Webhook, WebhookDelivery } from '@tessera/contracts';
import { succeeded, type ServiceResult } from '../domain/service-problem.js';
import type { VerifierApi } from '../network/verifier-api.js';

export interface LoadVerifierDeps {
  verifier: Pick<VerifierApi, 'getVerifier' | 'getWebhook' | 'listWebhookDeliveries' | 'getRegistrationCertificate'>;
}

export interface VerifierView {
  verifier: Verifier;
  /** Absent while the verifier has none. */
  registrationCertificate?: RegistrationCertificate;
  /** Absent while the verifier has no webhook. */
  webhook?: Webhook;
  deliveries?: PageOf<WebhookDelivery>;
}

/**
 * One verifier: its client metadata and settings, its registration certificate, its
 * webhook and the webhook's deliveries (newest first).
 */
export async function loadVerifier(
  deps: LoadVerifierDeps,
  input: { token: string; orgId: string; verifierId: string; deliveriesPage: number },
): Promise<ServiceResult<VerifierView>> {
  const { token, orgId, verifierId } = input;
  const [verifier, registration, webhook] = await Promise.all([
    deps.verifier.getVerifier(token, orgId, verifierId),
    deps.verifier.getRegistrationCertificate(token, orgId, verifierId),
    deps.verifier.getWebhook(token, orgId, verifierId),
  ]);
  if (!verifier.ok) return verifier;
  if (!registration.ok && registration.problem.code !== 'REGISTRATION_CERTIFICATE_NOT_FOUND') return registration;
  const found = {
    verifier: verifier.value,
    ...(registration.ok ? { registrationCertificate: registration.value } : {}),
  };
  if (!webhook.ok) {
    if (webhook.problem.code === 'WEBHOOK_NOT_FOUND') return succeeded(found);
    return webhook;
  }
  const deliveries = await deps.verifier.listWebhookDeliveries(token, orgId, verifierId, {
    pageNumber: input.deliveriesPage,
    pageSize: 20,
  });
  if (!deliveries.ok) return deliveries;
  return succeeded({ ...found, webhook: webhook.value, deliveries: deliveries.value });
}
