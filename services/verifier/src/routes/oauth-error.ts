import { walletErrorCode, type WalletEndpoint, type WalletRefusal } from '../domain/wallet-refusal.js';

/**
 * An error of the public OID4VP endpoints, built here only (routes), answered by
 * `oauthErrorHandler` (public-errors.ts) as OAuth does:
 * `{ error, error_description }` with the HTTP status given (and `Retry-After`
 * when `retryAfterSeconds` is set, for 429).
 */
export class OAuthError extends Error {
  readonly retryAfterSeconds?: number;

  constructor(
    readonly statusCode: number,
    readonly error: string,
    readonly description: string,
    options: { retryAfterSeconds?: number } = {},
  ) {
    super(description);
    this.name = 'OAuthError';
    if (options.retryAfterSeconds !== undefined) this.retryAfterSeconds = options.retryAfterSeconds;
  }
}

/** The sentences of the refusals the endpoint words itself; the others carry the use case's. */
const ENDPOINT_WORDING: Record<WalletEndpoint, { unknown: string; overLimit: (seconds: number) => string }> = {
  request_uri: {
    unknown: 'No authorization request exists at this request_uri.',
    overLimit: (seconds) => `Too many fetches of this request object: retry after ${seconds} s.`,
  },
  response_uri: {
    unknown: 'No authorization request exists at this response_uri.',
    overLimit: (seconds) => `Too many responses to this authorization request: retry after ${seconds} s.`,
  },
};

/**
 * A wallet-facing use case's refusal as the endpoint answers it (VERIFIER.md,
 * Wallet endpoint errors): no such request 404, over the session's limit 429 with
 * Retry-After, anything else 400; the `error` code is `walletErrorCode`'s.
 */
export function toOAuthError(refusal: WalletRefusal, endpoint: WalletEndpoint): OAuthError {
  const error = walletErrorCode(refusal, endpoint);
  const wording = ENDPOINT_WORDING[endpoint];
  switch (refusal.kind) {
    case 'unknown-request':
      return new OAuthError(404, error, wording.unknown);
    case 'over-limit':
      return new OAuthError(429, error, wording.overLimit(refusal.retryAfterSeconds), {
        retryAfterSeconds: refusal.retryAfterSeconds,
      });
    case 'invalid-request':
    case 'request-unavailable':
      return new OAuthError(400, error, refusal.description);
  }
}
