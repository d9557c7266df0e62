import type { JWTPayload } from 'jose';

// The request each OpenID4VP protocol of the Digital Credentials API carries,
// derived from the one request object `request-object.ts` builds (OpenID4VP 1.0
// Appendix A.2 and A.3), so a parameter added to that payload (such as
// `verifier_info`) reaches every protocol: the signed protocol sends it whole
// as a compact JWS; the unsigned and multi-signed ones take these views of it.

/**
 * What an unsigned request leaves out of the request object: `client_id` (MUST
 * be omitted, A.2), `expected_origins` (not for unsigned requests), the JWT
 * claims and `wallet_nonce`, which mean nothing outside a JWT, and `request`.
 * Everything else is kept, so new request parameters flow through.
 */
const NOT_IN_UNSIGNED_REQUESTS = new Set([
  'client_id',
  'expected_origins',
  'iss',
  'aud',
  'iat',
  'exp',
  'nbf',
  'jti',
  'wallet_nonce',
  'request',
]);

/**
 * `data` of an `openid4vp-v1-unsigned` request: the request parameters as a
 * plain JSON object, without `client_id`.
 */
export function buildUnsignedDcApiRequest(requestObject: JWTPayload): Record<string, unknown> {
  return Object.fromEntries(Object.entries(requestObject).filter(([name]) => !NOT_IN_UNSIGNED_REQUESTS.has(name)));
}

/**
 * Parameters that an `openid4vp-v1-multisigned` request carries only in each
 * signature's protected header (A.3.2): `client_id` (each signer's own) and
 * `verifier_info`.
 */
const PER_SIGNATURE_PARAMETERS = ['client_id', 'verifier_info'] as const;

export interface MultiSignedParts {
  /** Every other request parameter; `expected_origins` stays (required for signed requests over the DC API). */
  payload: JWTPayload;
  /** Request parameters the request object carried that go into every protected header (`verifier_info`). */
  protectedHeader: Record<string, unknown>;
}

/**
 * Splits a request object for `openid4vp-v1-multisigned`: `client_id` is dropped
 * (each signature names its signer's), `verifier_info` moves into every
 * signature's protected header, the rest is the shared payload.
 */
export function splitMultiSignedRequest(requestObject: JWTPayload): MultiSignedParts {
  const payload: JWTPayload = {};
  const protectedHeader: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(requestObject)) {
    if (!(PER_SIGNATURE_PARAMETERS as readonly string[]).includes(name)) payload[name] = value;
    else if (name !== 'client_id') protectedHeader[name] = value;
  }
  return { payload, protectedHeader };
}
