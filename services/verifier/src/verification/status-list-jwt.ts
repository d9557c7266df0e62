import { compactVerify, decodeJwt, decodeProtectedHeader } from 'jose';
import { describeError } from './check-order.js';
import { findIssuerKey, JWS_ALGORITHMS } from './issuer-key.js';
import type { OpenedStatusListToken } from './opened-status-list-token.js';

/**
 * Opens a Status List Token in JWT form (draft-ietf-oauth-status-list, Status List
 * Token in JWT Format): the compact JWS's header and claims, its signer named by `x5c`
 * or a DID (`kid`, else `iss`), its signature checked with jose.
 */
export function openStatusListJwt(jwt: string): OpenedStatusListToken {
  const header = decodeProtectedHeader(jwt) as Record<string, unknown>;
  const payload = decodeJwt(jwt) as Record<string, unknown>;
  return {
    format: 'jwt',
    typ: header.typ,
    expectedTyp: 'statuslist+jwt',
    claims: {
      sub: payload.sub,
      iat: payload.iat,
      exp: payload.exp,
      ttl: payload.ttl,
      statusList: payload.status_list,
    },
    lstEncoding: 'base64url',
    signer: findIssuerKey({ header, iss: payload.iss }),
    async verifySignature(key) {
      await compactVerify(jwt, key, { algorithms: JWS_ALGORITHMS }).catch((error: unknown) => {
        throw new Error(`the token's signature is invalid (${describeError(error)})`);
      });
    },
  };
}
