import { createHmac, randomBytes } from 'node:crypto';

// Standard Webhooks (https://www.standardwebhooks.com): symmetric signatures.

const SECRET_PREFIX = 'whsec_';

/** A new webhook secret: `whsec_` + base64 of 32 random bytes (the HMAC key). */
export function generateWebhookSecret(): string {
  return `${SECRET_PREFIX}${randomBytes(32).toString('base64')}`;
}

export interface WebhookSignatureInput {
  /** `whsec_…` as handed to the relying party. */
  secret: string;
  /** `webhook-id`: the event id. */
  id: string;
  /** `webhook-timestamp`: seconds since the epoch, of this attempt. */
  timestamp: number;
  /** The exact bytes of the JSON body sent. */
  body: string;
}

/**
 * `webhook-signature`: `v1,` + base64 of HMAC-SHA256 over `{id}.{timestamp}.{body}`,
 * keyed with the base64-decoded secret (the part after `whsec_`).
 */
export function signWebhook(input: WebhookSignatureInput): string {
  if (!input.secret.startsWith(SECRET_PREFIX)) throw new Error('a webhook secret starts with whsec_');
  const key = Buffer.from(input.secret.slice(SECRET_PREFIX.length), 'base64');
  const mac = createHmac('sha256', key).update(`${input.id}.${input.timestamp}.${input.body}`, 'utf8').digest('base64');
  return `v1,${mac}`;
}
