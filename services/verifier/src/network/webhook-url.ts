import { isIP } from 'node:net';
import type { ErrorDetail } from '@tessera/contracts';
import type { WebhookTargetPolicy } from '../domain/webhook-target-policy.js';
import { classifyAddress } from './classify-address.js';

/**
 * The URL rules checked when a webhook is saved: an absolute `https:` URL
 * (`http:` only when allowed), no user info (credentials in a URL end up in
 * logs and lists), no fragment, and — when private addresses are refused — no
 * IP literal outside global unicast. Host names are judged at each delivery,
 * on the address they resolve to then (`create-guarded-fetch.ts`).
 * Answers the problems, empty when the URL is acceptable.
 */
export function checkWebhookUrl(value: string, policy: WebhookTargetPolicy): ErrorDetail[] {
  const problem = (message: string): ErrorDetail[] => [{ path: '/url', message }];
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return problem('must be an absolute URL');
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return problem('must be an https URL');
  if (url.protocol === 'http:' && !policy.allowHttp)
    return problem('must be an https URL (http is refused: WEBHOOK_ALLOW_HTTP is off)');
  if (url.username || url.password)
    return problem('must not carry user info (credentials); authenticate the sender by its signature');
  if (url.hash) return problem('must not have a fragment');
  const hostname = url.hostname.replace(/^\[|\]$/g, '');
  if (policy.denyPrivateAddresses && isIP(hostname)) {
    const address = classifyAddress(hostname);
    if (!address.public)
      return problem(`must not name a ${address.range} address: webhooks are only sent to public addresses`);
  }
  return [];
}
