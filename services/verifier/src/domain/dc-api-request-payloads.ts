import type { JWTPayload } from 'jose';

// The request parameters each OpenID4VP protocol of the Digital Credentials API
// carries, derived from the one request object `request-object.ts` builds
// (OpenID4VP 1.0 Appendix A.2 and A.3): the signed protocol sends it whole as a
// compact JWS; the others take these views of it.

/**
 * The parameters an unsigned request may carry (Appendix A.2: `client_id` MUST
 * be omitted, `expected_origins` is not for unsigned requests, `request` and
 * `verifier_info` belong to signed ones). JWT claims (`aud`, `iat`, `exp`) and
 * `wallet_nonce` mean nothing outside a JWT and are left out too.
 */
const UNSIGNED_PARAMETERS = [
  'response_type',
  'response_mode',
  'nonce',
  'client_metadata',
  'dcql_query',
  'transaction_data',
] as const;

/**
 * `data` of an `openid4vp-v1-unsigned` request: the request parameters as a
 * plain JSON object, without `client_id`.
 */
export function buildUnsignedDcApiRequest(requestObject: JWTPayload): Record<string, unknown> {
  const data: Record<string, unknown> = {};
  for (const name of UNSIGNED_PARAMETERS) if (requestObject[name] !== undefined) data[name] = requestObject[name];
  return data;
}

/**
 * The payload of an `openid4vp-v1-multisigned` request (Appendix A.3.2): every
 * parameter of the signed request object except `client_id`, which each
 * signature's protected header carries instead (with that signer's key material).
 * `expected_origins` stays: it is required for signed requests over the DC API.
 */
export function buildMultiSignedPayload(requestObject: JWTPayload): JWTPayload {
  const { client_id: _clientId, ...payload } = requestObject;
  return payload;
}
