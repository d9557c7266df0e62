// What the wallet-facing use cases answer instead of a result (VERIFIER.md,
// Wallet-facing endpoints). A refusal leaves the session unchanged, except the one
// telling the wallet its presentation was not accepted (the session ended in Error
// first). The use cases return it; the routes answer it as an OAuth error
// (routes/oauth-error.ts), with the status and the sentence of their endpoint.

/** Why a wallet's request was refused. */
export type WalletRefusal =
  /** No authorization request exists at this request_uri / response_uri. */
  | { kind: 'unknown-request' }
  /** Beyond the session's limit (SESSION_REQUEST_FETCH_LIMIT / SESSION_RESPONSE_LIMIT per window). */
  | { kind: 'over-limit'; retryAfterSeconds: number }
  /** What the wallet sent is unusable (bad wallet_metadata, an answer that cannot be read, decrypted or matched). */
  | { kind: 'invalid-request'; description: string }
  /** The authorization request cannot be served or answered here (any more): DC API session, expired, answered, key replaced. */
  | { kind: 'request-unavailable'; description: string };

/** A wallet-facing use case's answer: its value, or a refusal. */
export type WalletOutcome<T> = { ok: true; value: T } | { ok: false; refusal: WalletRefusal };

/** The endpoint a refusal is answered at: the request object (`request_uri`) or the response (`response_uri`). */
export type WalletEndpoint = 'request_uri' | 'response_uri';

/**
 * The OAuth `error` code of a refusal at an endpoint (RFC 6749 §4.1.2.1, OpenID4VP 1.0
 * §8.5): an unusable request_uri is `invalid_request_uri`, anything else the wallet
 * sent wrong `invalid_request`, a limit `temporarily_unavailable`. Also the `result`
 * label of the request-object fetch metric.
 */
export function walletErrorCode(
  refusal: WalletRefusal,
  endpoint: WalletEndpoint,
): 'invalid_request' | 'invalid_request_uri' | 'temporarily_unavailable' {
  switch (refusal.kind) {
    case 'over-limit':
      return 'temporarily_unavailable';
    case 'invalid-request':
      return 'invalid_request';
    case 'unknown-request':
    case 'request-unavailable':
      return endpoint === 'request_uri' ? 'invalid_request_uri' : 'invalid_request';
  }
}

/** Shorthands the use cases refuse with. */
export const refuse = {
  unknownRequest: (): WalletOutcome<never> => ({ ok: false, refusal: { kind: 'unknown-request' } }),
  overLimit: (retryAfterSeconds: number): WalletOutcome<never> => ({
    ok: false,
    refusal: { kind: 'over-limit', retryAfterSeconds },
  }),
  invalidRequest: (description: string): WalletOutcome<never> => ({
    ok: false,
    refusal: { kind: 'invalid-request', description },
  }),
  requestUnavailable: (description: string): WalletOutcome<never> => ({
    ok: false,
    refusal: { kind: 'request-unavailable', description },
  }),
};
