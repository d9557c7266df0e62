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
  /** Why there was no status, in one of the fixed sentences of `attemptError` (stored and shown to the tenant). */
  error?: string;
  /** The underlying error's own message, for the service's log only (it may name resolved addresses). */
  detail?: string;
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

/** Longest error detail logged for an attempt. */
const MAX_ERROR_LENGTH = 500;

/**
 * POSTs a signed event (`network/create-guarded-fetch.ts`: the address checked is
 * the address connected to; no redirects followed, so a 3xx is a failed attempt).
 * Only the status matters: the answer's body is never read (the stream is
 * cancelled at once), so a receiver cannot make the worker read much. Never
 * throws: a refused address, a timeout or a connection error is the outcome's
 * `error`, in a fixed sentence (`attemptError`). Nothing here logs (the caller logs the target's origin, never the URL's
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
      const reason = timeout.aborted
        ? `timed out after ${options.timeoutMs} ms`
        : attemptError(error, options.denyPrivateAddresses);
      return { error: reason, detail: messageOf(error).slice(0, MAX_ERROR_LENGTH), durationMs: durationMs() };
    }
  };
}

/** The text every refused target is recorded with: no address, no range, no hint whether the name exists. */
export const ADDRESS_REFUSED = 'refused: the address is not public';

/** Errors of name resolution (node:dns, getaddrinfo): the name does not exist, or not now. */
const RESOLUTION_ERRORS = new Set(['ENOTFOUND', 'EAI_AGAIN', 'EAI_FAIL', 'EAI_NONAME', 'EAI_NODATA', 'ENODATA']);

/**
 * What a failed attempt is recorded as (`attempts[].error`, issue 28, item 3): one fixed
 * sentence per kind of failure, never the error's own message — that names the address a
 * host resolved to and its range ("… resolves to 10.96.0.1 (private) …"), or tells apart a
 * name that does not exist (ENOTFOUND) from one that resolves inside the network, which would
 * let a tenant map the cluster's internal names. While private addresses are refused, a name
 * that does not resolve reads exactly as one that resolves to a refused address.
 */
export function attemptError(error: unknown, denyPrivateAddresses: boolean): string {
  const cause = error instanceof Error && error.cause instanceof Error ? error.cause : undefined;
  if (error instanceof WebhookAddressError || cause instanceof WebhookAddressError) return ADDRESS_REFUSED;
  const code = codeOf(cause) ?? codeOf(error) ?? '';
  if (RESOLUTION_ERRORS.has(code)) return denyPrivateAddresses ? ADDRESS_REFUSED : 'the host name does not resolve';
  if (code === 'ECONNREFUSED') return 'connection refused';
  if (code === 'ECONNRESET' || code === 'EPIPE') return 'connection reset';
  if (code === 'ETIMEDOUT') return 'connection timed out';
  if (code === 'EHOSTUNREACH' || code === 'ENETUNREACH') return 'the address is unreachable';
  if (code.startsWith('HPE_')) return 'the answer is not HTTP';
  if (isTlsError(code)) return 'TLS failed: the receiver’s certificate or handshake was not accepted';
  return 'network error';
}

function codeOf(error: unknown): string | undefined {
  const code = (error as { code?: unknown } | undefined)?.code;
  return typeof code === 'string' ? code : undefined;
}

/** OpenSSL's and Node's TLS error codes (certificate verification, host name, handshake). */
function isTlsError(code: string): boolean {
  return (
    code.startsWith('ERR_TLS_') ||
    code.startsWith('ERR_SSL_') ||
    code.startsWith('CERT_') ||
    code.startsWith('UNABLE_TO_') ||
    code.includes('SELF_SIGNED') ||
    code === 'HOSTNAME_MISMATCH'
  );
}

/** The error's message with its cause's, e.g. `fetch failed: connect ECONNREFUSED 127.0.0.1:9` (for the log). */
function messageOf(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  const cause = error instanceof Error && error.cause instanceof Error ? error.cause : undefined;
  return cause ? `${message}: ${cause.message}` : message;
}
