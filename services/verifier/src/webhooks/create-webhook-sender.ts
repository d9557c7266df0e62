import type { lookup as dnsLookup } from 'node:dns';
import { performance } from 'node:perf_hooks';
import type { AddressClassification } from '../network/classify-address.js';
import { createGuardedFetch } from '../network/create-guarded-fetch.js';

/** A webhook host that resolves to (or is) an address webhooks may not reach. */
export class WebhookAddressError extends Error {
  readonly code = 'EWEBHOOKADDRESS';

  constructor(hostname: string, refused: AddressClassification) {
    super(
      `${hostname} resolves to ${refused.address} (${refused.range}), which webhooks may not reach (WEBHOOK_DENY_PRIVATE_ADDRESSES)`,
    );
    this.name = 'WebhookAddressError';
  }
}

export interface WebhookRequest {
  url: string;
  /** The Standard Webhooks headers (`webhook-id`, `webhook-timestamp`, `webhook-signature`). */
  headers: Record<string, string>;
  /** The exact JSON bytes that were signed. */
  body: string;
}

/** How one POST went: the receiver's status, or why there was none. */
export interface WebhookSendOutcome {
  statusCode?: number;
  error?: string;
  durationMs: number;
  /** The caller's signal ended the attempt (the replica is stopping): not the receiver's failure. */
  abandoned?: boolean;
}

export type WebhookSender = (
  request: WebhookRequest,
  options?: { signal?: AbortSignal },
) => Promise<WebhookSendOutcome>;

export interface WebhookSenderOptions {
  /** Refuse targets whose host is or resolves to a non-public address (resolved once, connected to as checked). */
  denyPrivateAddresses: boolean;
  /** Whole-attempt timeout: connection, request and the answer's status line and headers. */
  timeoutMs: number;
  /** Name resolution (node:dns `lookup` by default; tests play DNS). */
  resolve?: typeof dnsLookup;
}

/** Longest error text recorded for an attempt. */
const MAX_ERROR_LENGTH = 500;

/**
 * POSTs a signed event (`network/create-guarded-fetch.ts`: the address checked is
 * the address connected to; no redirects followed, so a 3xx is a failed attempt).
 * Only the status matters: the answer's body is never read (the stream is
 * cancelled at once), so a receiver cannot make the worker read much. Never
 * throws: a refused address, a timeout or a connection error is the outcome's
 * `error`. Nothing here logs (the caller logs the target's origin, never the URL's
 * path or query, which may carry a token, nor the headers).
 */
export function createWebhookSender(options: WebhookSenderOptions): WebhookSender {
  const fetchGuarded = createGuardedFetch(
    { denyPrivateAddresses: options.denyPrivateAddresses },
    {
      refusal: (hostname, refused) => new WebhookAddressError(hostname, refused),
      ...(options.resolve ? { resolve: options.resolve } : {}),
    },
  );
  return async (request, sendOptions = {}) => {
    const started = performance.now();
    const timeout = AbortSignal.timeout(options.timeoutMs);
    const signal = sendOptions.signal ? AbortSignal.any([timeout, sendOptions.signal]) : timeout;
    const durationMs = () => Math.round(performance.now() - started);
    try {
      const response = await fetchGuarded(request.url, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'user-agent': 'Tessera-Verifier-Webhooks/1',
          ...request.headers,
        },
        body: request.body,
        signal,
      });
      await response.body?.cancel().catch(() => undefined);
      return { statusCode: response.status, durationMs: durationMs() };
    } catch (error) {
      if (!timeout.aborted && sendOptions.signal?.aborted)
        return { error: 'abandoned: the verifier replica was stopping', durationMs: durationMs(), abandoned: true };
      const reason = timeout.aborted ? `timed out after ${options.timeoutMs} ms` : describeError(error);
      return { error: reason.slice(0, MAX_ERROR_LENGTH), durationMs: durationMs() };
    }
  };
}

/** The error's message with its cause's, e.g. `fetch failed: connect ECONNREFUSED 127.0.0.1:9`. */
function describeError(error: unknown): string {
  if (error instanceof WebhookAddressError) return error.message;
  const message = error instanceof Error ? error.message : String(error);
  const cause = error instanceof Error && error.cause instanceof Error ? error.cause : undefined;
  if (cause instanceof WebhookAddressError) return cause.message;
  return message;
}
