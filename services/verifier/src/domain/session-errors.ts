import { ErrorCode, type VerificationErrorCode } from '@tessera/contracts';

// What a session's `error.message` says (issue 28, item 3): one fixed sentence per
// code, naming at most the subject the code is about — the credential query id of
// the session's own DCQL query, or the wallet's OAuth error code when it is a
// registered one. Never a parser's, a library's or a check's own words: those can
// quote what the wallet sent (a malformed Disclosure's JSON.parse message holds
// claim values) or what the network looks like from inside (a status list host's
// private address), and the message is stored unsealed for the session's whole
// retention and shown in session reads, events and wallet answers.

type SessionErrorCode = (typeof VerificationErrorCode)[keyof typeof VerificationErrorCode];

/** The sentence of each code, without the subject and the final stop. */
const SESSION_ERROR_TEXTS: Record<SessionErrorCode, string> = {
  INVALID_VP_TOKEN: 'The vp_token does not answer the request',
  ISSUER_SIGNATURE_INVALID: 'The issuer signature of the credential is invalid',
  DISCLOSURE_INVALID: 'A disclosure of the credential is invalid',
  ISSUER_NOT_TRUSTED: 'The issuer of the credential is not trusted',
  ISSUER_MISMATCH: 'The credential names another issuer than the one that signed it',
  CREDENTIAL_TYPE_NOT_ALLOWED: 'The credential is of a type its issuer is not trusted for',
  CREDENTIAL_EXPIRED: 'The credential has expired',
  CREDENTIAL_NOT_YET_VALID: 'The credential is not valid yet',
  KEY_BINDING_INVALID: 'The holder binding of the credential is missing or invalid',
  NONCE_MISMATCH: 'The holder binding of the credential was made for another request (nonce)',
  AUDIENCE_MISMATCH: 'The holder binding of the credential was made for another verifier (audience)',
  KEY_BINDING_STALE: 'The holder binding of the credential is too old or dated in the future',
  TRANSACTION_DATA_MISMATCH: 'The transaction data of the request is not confirmed',
  DEVICE_SIGNATURE_INVALID: 'The device signature of the credential is invalid',
  DCQL_NOT_SATISFIED: 'The presentation does not satisfy the query',
  CREDENTIAL_REVOKED: 'The credential is revoked',
  CREDENTIAL_SUSPENDED: 'The credential is suspended',
  STATUS_LIST_UNAVAILABLE: 'The status of the credential could not be checked',
  WALLET_ERROR: 'The wallet answered with an error',
  SESSION_EXPIRED: 'The session expired before the wallet answered; start a new one',
};

/**
 * OAuth and OpenID4VP error codes a wallet may answer with (RFC 6749 §4.1.2.1,
 * OpenID4VP 1.0 §8.5, and the request-object errors of RFC 9101 §6.3): only these
 * are named in the session's message; any other text the wallet sent is not kept.
 */
const REGISTERED_WALLET_ERRORS = new Set([
  'invalid_request',
  'unauthorized_client',
  'access_denied',
  'unsupported_response_type',
  'invalid_scope',
  'server_error',
  'temporarily_unavailable',
  'invalid_client',
  'vp_formats_not_supported',
  'invalid_request_uri_method',
  'invalid_transaction_data',
  'wallet_unavailable',
  'invalid_request_uri',
  'invalid_request_object',
  'request_not_supported',
  'request_uri_not_supported',
]);

/** The subject a wallet error is stored with: its code when registered, else none. */
export function walletErrorSubject(error: string): string | undefined {
  return REGISTERED_WALLET_ERRORS.has(error) ? error : undefined;
}

/**
 * A session's `error.message`: the code's sentence, with the credential query it is
 * about (verification codes) or the wallet's registered error code (WALLET_ERROR).
 * A code this version does not know (a row a later version wrote) reads as a failure
 * without detail.
 */
export function sessionErrorMessage(code: string, subject?: string | null): string {
  const text = (SESSION_ERROR_TEXTS as Record<string, string | undefined>)[code];
  if (!text) return 'The session failed.';
  if (!subject) return `${text}.`;
  return code === ErrorCode.WALLET_ERROR ? `${text}: ${subject}.` : `${text} (credential query "${subject}").`;
}
