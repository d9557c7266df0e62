import { ErrorCode } from '@tessera/contracts';
import { notFound } from '@tessera/service-kit';
import type { VerifierRow, WebhookRow } from '../../db/schema.js';
import type { VerifierDb } from '../../db/types.js';
import { findVerifier } from '../../db/verifiers.js';
import { findWebhook } from '../../db/webhooks.js';
import { verifierNotFound } from '../../domain/errors.js';

// Shared step of the webhook use cases: the verifier of the path (404
// VERIFIER_NOT_FOUND, also for another organisation's) and its webhook.

/** The organisation's verifier `verifierId`, or 404. */
export async function findOwnVerifier(
  db: VerifierDb,
  input: { orgId: string; verifierId: string },
): Promise<VerifierRow> {
  const verifier = await findVerifier(db, input);
  if (!verifier) throw verifierNotFound(input.verifierId);
  return verifier;
}

/** The verifier and its webhook, or 404 (VERIFIER_NOT_FOUND, then WEBHOOK_NOT_FOUND). */
export async function findVerifierWebhook(
  db: VerifierDb,
  input: { orgId: string; verifierId: string },
): Promise<{ verifier: VerifierRow; webhook: WebhookRow }> {
  const verifier = await findOwnVerifier(db, input);
  const webhook = await findWebhook(db, { orgId: input.orgId, verifierRef: verifier.id });
  if (!webhook)
    throw notFound(`Verifier "${input.verifierId}" has no webhook; create one with PUT.`, ErrorCode.WEBHOOK_NOT_FOUND);
  return { verifier, webhook };
}
