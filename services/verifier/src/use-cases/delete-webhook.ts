import { ErrorCode } from '@tessera/contracts';
import { notFound } from '@tessera/service-kit';
import type { VerifierRow, WebhookRow } from '../db/schema.js';
import type { VerifierDb } from '../db/types.js';
import { deleteWebhookRow } from '../db/webhooks.js';
import { findOwnVerifier } from './steps/find-verifier-webhook.js';

export interface DeleteWebhookDeps {
  db: VerifierDb;
}

/**
 * Deletes the verifier's webhook with its deliveries: pending ones are not sent
 * (a delivery in flight finishes, and its outcome is not recorded). Answers what was deleted.
 */
export async function deleteWebhook(
  deps: DeleteWebhookDeps,
  input: { orgId: string; verifierId: string },
): Promise<{ verifier: VerifierRow; webhook: WebhookRow }> {
  const verifier = await findOwnVerifier(deps.db, input);
  const webhook = await deleteWebhookRow(deps.db, { orgId: input.orgId, verifierRef: verifier.id });
  if (!webhook) throw notFound(`Verifier "${input.verifierId}" has no webhook.`, ErrorCode.WEBHOOK_NOT_FOUND);
  return { verifier, webhook };
}
