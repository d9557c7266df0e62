import { compactDecrypt, decodeProtectedHeader, importJWK, type JWK } from 'jose';

const CONTENT_ENCRYPTION = ['A128GCM', 'A256GCM'];

export interface DecryptAuthorizationResponseOptions {
  /** The JWE in compact serialization: the `response` form field (`direct_post.jwt`) or `{ response }` over the DC API. */
  jwe: unknown;
  /** The session's ephemeral private ECDH-ES JWK; its `kid` is the one the request object advertised. */
  privateJwk: JWK;
}

/** The decrypted Authorization Response parameters (OpenID4VP 1.0 §8.3). */
export interface DecryptedAuthorizationResponse {
  vp_token?: unknown;
  state?: unknown;
  error?: unknown;
  error_description?: unknown;
  [parameter: string]: unknown;
}

export type DecryptAuthorizationResponseResult =
  { ok: true; payload: DecryptedAuthorizationResponse; enc: string } | { ok: false; message: string };

/**
 * Decrypts a `direct_post.jwt` / `dc_api.jwt` response: a JWE with `alg`
 * ECDH-ES, `enc` A128GCM or A256GCM, the session key's `kid` and no `zip`
 * (OpenID4VP 1.0 §8.3, HAIP). Signed-only (JARM) responses and anything else fail; the
 * caller answers 400 `invalid_request` / `DECRYPTION_FAILED` and leaves the
 * session unchanged.
 */
export async function decryptAuthorizationResponse(
  options: DecryptAuthorizationResponseOptions,
): Promise<DecryptAuthorizationResponseResult> {
  const fail = (message: string): DecryptAuthorizationResponseResult => ({ ok: false, message });
  if (typeof options.jwe !== 'string' || options.jwe.split('.').length !== 5)
    return fail('the response is not a compact JWE');
  let header: Record<string, unknown>;
  try {
    header = decodeProtectedHeader(options.jwe) as Record<string, unknown>;
  } catch {
    return fail('the JWE header cannot be decoded');
  }
  // RFC 7516 §4.1.3 compression: refused, as compress-then-encrypt leaks the
  // plaintext's content through the ciphertext's length (the CRIME/BREACH class)
  // and inflating is a decompression-bomb surface; no profile we take needs it.
  // Fixed sentences: the caller returns them, and a header's values are whatever the sender chose.
  if (header.zip !== undefined) return fail('compressed JWEs (zip) are not accepted');
  if (header.alg !== 'ECDH-ES') return fail('the JWE alg must be ECDH-ES');
  if (typeof header.enc !== 'string' || !CONTENT_ENCRYPTION.includes(header.enc))
    return fail('the JWE enc must be A128GCM or A256GCM');
  if (options.privateJwk.kid !== undefined && header.kid !== options.privateJwk.kid)
    return fail("the JWE kid is not the session key's");
  let plaintext: Uint8Array;
  try {
    const key = await importJWK(options.privateJwk, 'ECDH-ES');
    ({ plaintext } = await compactDecrypt(options.jwe, key, {
      keyManagementAlgorithms: ['ECDH-ES'],
      contentEncryptionAlgorithms: CONTENT_ENCRYPTION,
    }));
  } catch {
    return fail('the JWE cannot be decrypted with the session key');
  }
  let payload: unknown;
  try {
    payload = JSON.parse(Buffer.from(plaintext).toString('utf8'));
  } catch {
    return fail('the decrypted payload is not JSON');
  }
  if (typeof payload !== 'object' || payload === null || Array.isArray(payload))
    return fail('the decrypted payload is not a JSON object');
  const response = payload as DecryptedAuthorizationResponse;
  if (response.vp_token === undefined && response.error === undefined)
    return fail('the decrypted payload has neither vp_token nor error');
  return { ok: true, payload: response, enc: header.enc };
}
