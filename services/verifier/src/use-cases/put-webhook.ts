import { randomUUID } from 'node:crypto';
import type { WebhookEventType } from '@tessera/contracts';
import { badRequest, type Clock, forbidden } from '@tessera/service-kit';
import type { KeyEncryptionKey } from '../crypto/key-encryption.js';
import { webhookSecretContext } from '../crypto/sealing-contexts.js';
import { generateWebhookSecret } from '../crypto/webhook-signature.js';
import type { VerifierRow, WebhookRow } from '../db/schema.js';
import type { VerifierDb } from '../db/types.js';
import { changeWebhookEvents, upsertWebhook } from '../db/webhooks.js';
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
  /**
   * The caller may say where events go: create the webhook or change its `url`
   * (an owner or admin of the organisation). Without it only the `events` of a
   * webhook whose `url` stays the same may change.
   */
  mayChangeTarget: boolean;
}

/** The webhook with its secret in the clear (for the answer of creation and rotation only). */
export interface WebhookWithSecretResult {
  verifier: VerifierRow;
  webhook: WebhookRow;
  secret: string;
}

/** A new webhook, shown once with its secret; or an existing one changed, whose secret is never shown again. */
export type PutWebhookResult =
  ({ kind: 'created' } & WebhookWithSecretResult) | { kind: 'changed'; verifier: VerifierRow; webhook: WebhookRow };

/**
 * Creates the verifier's webhook with a new secret, or changes the URL and
 * events of the one it has, keeping its secret (receivers keep verifying;
 * `rotate-secret` is how a secret changes). The secret is shown once, by the
 * creation (and by each rotation): a change answers without it, so a token
 * that may manage webhooks cannot read the live secret (issue 28, item 4).
 * Saying where events go — creating, or changing the URL — is for owners and
 * admins (403 otherwise, checked after the verifier's 404): with the verifier
 * role a token could otherwise redirect a relying party's events, or delete the
 * webhook and create it anew elsewhere. The secret is stored sealed with
 * KEY_ENCRYPTION_KEY, bound to the webhook's id.
 */
export async function putWebhook(deps: PutWebhookDeps, input: PutWebhookInput): Promise<PutWebhookResult> {
  const problems = checkWebhookUrl(input.url, deps.webhookTargets);
  if (problems.length > 0)
    throw badRequest(
      `The webhook url is not acceptable: ${problems.map((problem) => problem.message).join('; ')}.`,
      problems,
    );
  const verifier = await findOwnVerifier(deps.db, input);
  const now = deps.clock();
  if (!input.mayChangeTarget) {
    // Conditional on the stored URL: no webhook, or another URL, changes nothing.
    const webhook = await changeWebhookEvents(deps.db, {
      orgId: input.orgId,
      verifierRef: verifier.id,
      url: input.url,
      events: [...input.events],
      now,
    });
    if (!webhook)
      throw forbidden(
        'Only an owner or admin of the organisation may create a webhook or change its url; the verifier role may change the events of a webhook whose url stays the same.',
      );
    return { kind: 'changed', verifier, webhook };
  }
  const id = randomUUID();
  const secret = generateWebhookSecret();
  const { webhook, created } = await upsertWebhook(deps.db, {
    id,
    orgId: input.orgId,
    verifierRef: verifier.id,
    url: input.url,
    events: [...input.events],
    encryptedSecret: deps.keyEncryptionKey.seal(secret, webhookSecretContext(id)),
    now,
  });
  return created ? { kind: 'created', verifier, webhook, secret } : { kind: 'changed', verifier, webhook };
}
