// The exact sentences a session's `error.message` may read (issue 28, item 3), written
// out here rather than imported from src, so a test over HTTP compares the service's
// words with the specification's: one fixed sentence per code, naming only the
// credential query of the request (or the wallet's registered error code).

const TEXTS: Record<string, string> = {
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
};

/** Every verification code of VERIFIER.md's table (with round 2's), each with its sentence. */
export const VERIFICATION_CODES = Object.keys(TEXTS);

/** A verification failure's message: the code's sentence, about credential query `queryId` when it concerns one. */
export function verificationErrorText(code: string, queryId?: string): string {
  const text = TEXTS[code];
  if (!text) throw new Error(`no sentence for ${code}`);
  return queryId ? `${text} (credential query "${queryId}").` : `${text}.`;
}

/** A wallet error's message: the registered OAuth code it sent, or nothing of what it sent. */
export function walletErrorText(registeredCode?: string): string {
  return registeredCode
    ? `The wallet answered with an error: ${registeredCode}.`
    : 'The wallet answered with an error.';
}

/** What the wallet endpoint answers when a well-formed presentation failed verification. */
export function notAcceptedDescription(code: string, queryId?: string): string {
  return `The presentation was not accepted: ${verificationErrorText(code, queryId)}`;
}
