import { ErrorCode } from '@tessera/contracts';
import { type Clock, notFound } from '@tessera/service-kit';
import type { KeyEncryptionKey } from '../crypto/key-encryption.js';
import { webhookSecretContext } from '../crypto/sealing-contexts.js';
import { generateWebhookSecret } from '../crypto/webhook-signature.js';
import type { VerifierDb } from '../db/types.js';
import { replaceWebhookSecret } from '../db/webhooks.js';
import type { WebhookWithSecretResult } from './put-webhook.js';
import { findVerifierWebhook } from './steps/find-verifier-webhook.js';

export interface RotateWebhookSecretDeps {
  db: VerifierDb;
  clock: Clock;
  keyEncryptionKey: KeyEncryptionKey;
}

/**
 * Gives the webhook a new secret, in force at once: every attempt from now on
 * (pending retries included) is signed with it, and the old one signs nothing
 * more — no overlap, so a leaked secret stops working the moment it is rotated.
 */
export async function rotateWebhookSecret(
  deps: RotateWebhookSecretDeps,
  input: { orgId: string; verifierId: string },
): Promise<WebhookWithSecretResult> {
  const { verifier, webhook } = await findVerifierWebhook(deps.db, input);
  const secret = generateWebhookSecret();
  const rotated = await replaceWebhookSecret(deps.db, {
    orgId: input.orgId,
    id: webhook.id,
    encryptedSecret: deps.keyEncryptionKey.seal(secret, webhookSecretContext(webhook.id)),
    now: deps.clock(),
  });
  if (!rotated) throw notFound(`Verifier "${input.verifierId}" has no webhook.`, ErrorCode.WEBHOOK_NOT_FOUND);
  return { verifier, webhook: rotated, secret };
}
