/**
 * What webhook targets may be (config: WEBHOOK_ALLOW_HTTP, WEBHOOK_DENY_PRIVATE_ADDRESSES;
 * `webhookTargetPolicyOf`). Judged when a webhook is saved (`network/webhook-url.ts`)
 * and at each delivery, on the address the host resolves to then (`network/create-guarded-fetch.ts`).
 */
export interface WebhookTargetPolicy {
  allowHttp: boolean;
  denyPrivateAddresses: boolean;
}
