/**
 * What a wallet (or a browser, over the DC API) sent, before any cryptography:
 * pure classification of the response parameters (OpenID4VP 1.0 §8). Anything
 * that is not one of these shapes is refused without touching the session.
 */
export type AuthorizationResponseParts =
  | { kind: 'vp_token'; vpToken: unknown; state?: string }
  | { kind: 'encrypted'; jwe: string }
  | { kind: 'error'; error: string; state?: string }
  | { kind: 'invalid'; message: string };

const ERROR_CODE = /^[\x20-\x21\x23-\x5b\x5d-\x7e]{1,200}$/;

/**
 * Wallet error responses are short ASCII codes (RFC 6749 §4.1.2.1). The description, free
 * text whoever posts may choose, is checked for its type and not kept: the session's
 * message names only a registered code (domain/session-errors.ts).
 */
function errorParts(fields: Record<string, unknown>): AuthorizationResponseParts {
  const { error, error_description: description, state } = fields;
  if (typeof error !== 'string' || !ERROR_CODE.test(error))
    return { kind: 'invalid', message: 'error must be an OAuth error code.' };
  if (description !== undefined && typeof description !== 'string')
    return { kind: 'invalid', message: 'error_description must be a string.' };
  if (state !== undefined && typeof state !== 'string') return { kind: 'invalid', message: 'state must be a string.' };
  return {
    kind: 'error',
    error,
    ...(state !== undefined ? { state } : {}),
  };
}

/**
 * `direct_post` / `direct_post.jwt` form fields. `vp_token` is a JSON string
 * here (form encoding); a `direct_post.jwt` session takes only `response`
 * (or an unencrypted wallet error, which carries nothing to protect; like every
 * answer at the response endpoint it must carry the session's `state`, which the
 * use case checks).
 */
export function readFormResponse(fields: Record<string, unknown>, encrypted: boolean): AuthorizationResponseParts {
  if (fields.error !== undefined) return errorParts(fields);
  if (encrypted) {
    if (fields.response === undefined)
      return { kind: 'invalid', message: 'This session takes an encrypted response (the response parameter, a JWE).' };
    if (typeof fields.response !== 'string' || fields.response.length === 0)
      return { kind: 'invalid', message: 'response must be a JWE in compact serialization.' };
    return { kind: 'encrypted', jwe: fields.response };
  }
  if (fields.response !== undefined)
    return {
      kind: 'invalid',
      message: 'This session takes an unencrypted response (vp_token and state), not response.',
    };
  if (typeof fields.vp_token !== 'string')
    return { kind: 'invalid', message: 'vp_token is required (a JSON object, form-encoded).' };
  let vpToken: unknown;
  try {
    vpToken = JSON.parse(fields.vp_token);
  } catch {
    return { kind: 'invalid', message: 'vp_token is not JSON.' };
  }
  if (typeof vpToken !== 'object' || vpToken === null || Array.isArray(vpToken))
    return { kind: 'invalid', message: 'vp_token must be a JSON object keyed by credential query id.' };
  if (typeof fields.state !== 'string') return { kind: 'invalid', message: 'state is required.' };
  return { kind: 'vp_token', vpToken, state: fields.state };
}

/** The decrypted payload of a JWE response (either flow): `vp_token` as an object (or its JSON string), or an error. */
export function readDecryptedResponse(payload: Record<string, unknown>): AuthorizationResponseParts {
  if (payload.error !== undefined) return errorParts(payload);
  let vpToken = payload.vp_token;
  if (typeof vpToken === 'string') {
    try {
      vpToken = JSON.parse(vpToken);
    } catch {
      return { kind: 'invalid', message: 'The decrypted vp_token is not JSON.' };
    }
  }
  if (typeof vpToken !== 'object' || vpToken === null || Array.isArray(vpToken))
    return { kind: 'invalid', message: 'The decrypted vp_token must be a JSON object keyed by credential query id.' };
  if (payload.state !== undefined && typeof payload.state !== 'string')
    return { kind: 'invalid', message: 'The decrypted state must be a string.' };
  return { kind: 'vp_token', vpToken, ...(typeof payload.state === 'string' ? { state: payload.state } : {}) };
}

/**
 * What the DC API returned to the browser (VERIFIER.md, DC API flow):
 * `{ vp_token }`, `{ response }`, `{ error }`, or the spec's `id_token` map, an
 * alias of `vp_token`. Exactly one of these; anything else is refused.
 */
export function readDcApiResponse(response: Record<string, unknown>): AuthorizationResponseParts {
  const present = ['vp_token', 'id_token', 'response', 'error'].filter((name) => response[name] !== undefined);
  if (present.length !== 1)
    return {
      kind: 'invalid',
      message: 'authorizationResponse must hold exactly one of vp_token, id_token, response or error.',
    };
  if (present[0] === 'error') return errorParts(response);
  if (present[0] === 'response') {
    return typeof response.response === 'string' && response.response.length > 0
      ? { kind: 'encrypted', jwe: response.response }
      : { kind: 'invalid', message: 'response must be a JWE in compact serialization.' };
  }
  const vpToken = response[present[0]!];
  if (typeof vpToken !== 'object' || vpToken === null || Array.isArray(vpToken))
    return { kind: 'invalid', message: `${present[0]} must be an object keyed by credential query id.` };
  return { kind: 'vp_token', vpToken };
}

/** What an `org-iso-mdoc` answer holds (ISO/IEC 18013-7 Annex C): the EncryptedResponse, or an OAuth error. */
export type AnnexCResponseParts =
  { kind: 'annex-c'; response: string } | Extract<AuthorizationResponseParts, { kind: 'error' | 'invalid' }>;

/**
 * The browser's `DigitalCredential.data` of an `org-iso-mdoc` answer: `{ response }`,
 * a base64url EncryptedResponse (opened, or refused as undecryptable, later), or
 * `{ error }` forwarded by the relying party. Exactly one of these.
 */
export function readAnnexCDcApiResponse(response: Record<string, unknown>): AnnexCResponseParts {
  const present = ['response', 'error'].filter((name) => response[name] !== undefined);
  if (present.length !== 1)
    return {
      kind: 'invalid',
      message: 'an org-iso-mdoc authorizationResponse holds exactly one of response or error.',
    };
  if (present[0] === 'error') return errorParts(response) as AnnexCResponseParts;
  return typeof response.response === 'string' && response.response.length > 0
    ? { kind: 'annex-c', response: response.response }
    : { kind: 'invalid', message: 'response must be the base64url EncryptedResponse the browser returned.' };
}
