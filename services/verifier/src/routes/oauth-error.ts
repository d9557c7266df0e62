/**
 * An error of the public OID4VP endpoints, answered as OAuth does:
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
