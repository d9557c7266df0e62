/**
 * An error of the public OID4VP endpoints, answered as OAuth does:
 * `{ error, error_description }` with the HTTP status given.
 */
export class OAuthError extends Error {
  constructor(
    readonly statusCode: number,
    readonly error: string,
    readonly description: string,
  ) {
    super(description);
    this.name = 'OAuthError';
  }
}
