import { STATUS_LIST_MEDIA_TYPES, type ErrorDetail, type StatusListFormat } from '@tessera/contracts';
import type { StatusListClaims, StatusListRuleOptions } from './status-list-claim-rules.js';
import { validateStatusListCwt } from './validate-status-list-cwt.js';
import { validateStatusListJwt } from './validate-status-list-jwt.js';

// A status list token in either form (draft-ietf-oauth-status-list: JWT or CWT). A list
// keeps the form it was created in; its row holds the JWT's text or the CWT's bytes,
// never both, and serves them byte for byte.

/** A token as a write sends it: the compact JWS, or base64url of the CWT bytes. */
export type SubmittedToken = { jwt: string; cwt?: undefined } | { cwt: string; jwt?: undefined };

/** A token as it is stored and served: the JWT's text, or the CWT's bytes. */
export type TokenValue = { jwt: string; cwt?: undefined } | { cwt: Buffer; jwt?: undefined };

/** A stored list's token columns (rows, cached lists, versions): exactly one is set. */
export interface StoredToken {
  jwt: string | null;
  cwt?: Uint8Array | null;
}

export function formatOfSubmitted(token: SubmittedToken): StatusListFormat {
  return token.cwt !== undefined ? 'cwt' : 'jwt';
}

export function formatOfStored(token: StoredToken): StatusListFormat {
  return token.cwt != null ? 'cwt' : 'jwt';
}

/** The media type a stored list is served as. */
export function mediaTypeOf(token: StoredToken): string {
  return STATUS_LIST_MEDIA_TYPES[formatOfStored(token)];
}

/** The exact bytes served for a stored token (the JWT is ASCII: its characters are its bytes). */
export function bytesOf(token: StoredToken): Buffer {
  if (token.cwt != null) return Buffer.from(token.cwt.buffer, token.cwt.byteOffset, token.cwt.byteLength);
  return Buffer.from(token.jwt ?? '', 'utf8');
}

/** What is served for a token about to be stored: the JWT's text (ASCII: its bytes) or the CWT's bytes. */
export function servedValue(token: TokenValue): string | Buffer {
  return token.cwt !== undefined ? token.cwt : token.jwt;
}

/**
 * The token of a write body `{ jwt?, cwt? }`: exactly one of the two, or the problems
 * (both `details` entries of a 400 VALIDATION_FAILED).
 */
export function parseSubmittedToken(body: { jwt?: string; cwt?: string }): SubmittedToken | ErrorDetail[] {
  if (body.jwt !== undefined && body.cwt !== undefined)
    return [{ path: '/cwt', message: 'send the token once: jwt for a JWT list or cwt for a CWT list, not both' }];
  if (body.jwt !== undefined) return { jwt: body.jwt };
  if (body.cwt !== undefined) return { cwt: body.cwt };
  return [
    {
      path: '/jwt',
      message: 'the token is missing: send jwt (a compact JWS) or cwt (base64url of a COSE_Sign1)',
    },
  ];
}

export type ValidateSubmittedTokenResult =
  | { ok: true; token: TokenValue; claims: StatusListClaims }
  | { ok: false; format: StatusListFormat; problems: ErrorDetail[] };

/** Checks a submitted token by the rules of its form; the value to store is the JWT trimmed, or the CWT's bytes. */
export function validateSubmittedToken(
  token: SubmittedToken,
  options: StatusListRuleOptions,
): ValidateSubmittedTokenResult {
  if (token.cwt !== undefined) {
    const result = validateStatusListCwt({ cwt: token.cwt, ...options });
    return result.ok
      ? { ok: true, token: { cwt: result.cwt }, claims: result.claims }
      : { ok: false, format: 'cwt', problems: result.problems };
  }
  const result = validateStatusListJwt({ jwt: token.jwt, ...options });
  return result.ok
    ? { ok: true, token: { jwt: result.jwt }, claims: result.claims }
    : { ok: false, format: 'jwt', problems: result.problems };
}
