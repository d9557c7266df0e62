import { randomUUID } from 'node:crypto';
import type { WebhookEventType } from '@tessera/contracts';
import { badRequest, type Clock } from '@tessera/service-kit';
import type { KeyEncryptionKey } from '../crypto/key-encryption.js';
import { webhookSecretContext } from '../crypto/sealing-contexts.js';
import { generateWebhookSecret } from '../crypto/webhook-signature.js';
import type { VerifierRow, WebhookRow } from '../db/schema.js';
import type { VerifierDb } from '../db/types.js';
import { upsertWebhook } from '../db/webhooks.js';
import type { WebhookTargetPolicy } from '../domain/webhook-target-policy.js';
import { checkWebhookUrl } from '../network/webhook-url.js';
import { findOwnVerifier } from './steps/find-verifier-webhook.js';

export interface PutWebhookDeps {
  db: VerifierDb;
  clock: Clock;
  keyEncryptionKey: KeyEncryptionKey;
  webhookTargets: WebhookTargetPolicy;
}

export interface PutWebhookInput {
  orgId: string;
  verifierId: string;
  url: string;
  events: WebhookEventType[];
}

/** The webhook as saved, with its secret in the clear (for the answer only). */
export interface WebhookWithSecretResult {
  verifier: VerifierRow;
  webhook: WebhookRow;
  secret: string;
}

/**
 * Creates the verifier's webhook with a new secret, or changes the URL and
 * events of the one it has, keeping its secret (receivers keep verifying;
 * `rotate-secret` is how a secret changes). Either way the answer carries the
 * secret in force, so PUT is idempotent. The secret is stored sealed with
 * KEY_ENCRYPTION_KEY, bound to the webhook's id.
 */
export async function putWebhook(deps: PutWebhookDeps, input: PutWebhookInput): Promise<WebhookWithSecretResult> {
  const problems = checkWebhookUrl(input.url, deps.webhookTargets);
  if (problems.length > 0)
    throw badRequest(
      `The webhook url is not acceptable: ${problems.map((problem) => problem.message).join('; ')}.`,
      problems,
    );
  const verifier = await findOwnVerifier(deps.db, input);
  const id = randomUUID();
  const webhook = await upsertWebhook(deps.db, {
    id,
    orgId: input.orgId,
    verifierRef: verifier.id,
    url: input.url,
    events: [...input.events],
    encryptedSecret: deps.keyEncryptionKey.seal(generateWebhookSecret(), webhookSecretContext(id)),
    now: deps.clock(),
  });
  return {
    verifier,
    webhook,
    secret: deps.keyEncryptionKey.open(webhook.encryptedSecret, webhookSecretContext(webhook.id)),
  };
}
