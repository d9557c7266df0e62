import type { VerifierRow, WebhookRow } from '../db/schema.js';
import type { VerifierDb } from '../db/types.js';
import { findVerifierWebhook } from './steps/find-verifier-webhook.js';

export interface GetWebhookDeps {
  db: VerifierDb;
}

/** The verifier's webhook (never its secret: the presenter has no field for it). */
export async function getWebhook(
  deps: GetWebhookDeps,
  input: { orgId: string; verifierId: string },
): Promise<{ verifier: VerifierRow; webhook: WebhookRow }> {
  return findVerifierWebhook(deps.db, input);
}
