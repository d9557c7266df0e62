import { createHash, createPublicKey } from 'node:crypto';
import type { JWK } from 'jose';
import { CheckRow, describeError, failure, type CheckFailure } from './check-order.js';
import { decodeJws, verifyDecodedJwsSignature } from './jws-signature.js';

export interface VerifyKeyBindingOptions {
  credentialQueryId: string;
  /** The KB-JWT (last `~` segment), or undefined when the presentation has none. */
  kbJwt: string | undefined;
  /** `require_cryptographic_holder_binding` of the credential query (DCQL default true). */
  required: boolean;
  /** The verified issuer payload (its `cnf` names the holder key). */
  issuerPayload: Record<string, unknown>;
  /** The presentation without the KB-JWT, ending in `~`: what `sd_hash` covers (RFC 9901 §4.3.1). */
  sdHashInput: string;
  /** `_sd_alg` of the issuer payload. */
  sdAlg: string;
  nonce: string;
  /**
   * Expected `aud`: the full client_id, or `origin:<origin>` over the DC API (OpenID4VP 1.0 §B.3.6, Appendix A.4);
   * a list when several are acceptable (a multi-signed DC API request: the origin or one of its signers).
   */
  audience: string | readonly string[];
  now: Date;
  kbMaxAgeSeconds: number;
  clockSkewSeconds: number;
}

export type VerifyKeyBindingResult =
  { ok: true; holderBinding: boolean; payload?: Record<string, unknown> } | { ok: false; failure: CheckFailure };

/**
 * Verifies the KB-JWT in table order: presence when required, then `typ`
 * kb+jwt with `iat`, `aud`, `nonce` and `sd_hash` present (RFC 9901 §4.3),
 * the signature by the `cnf.jwk` key (imported once, checked with node:crypto:
 * jws-signature.ts) and `sd_hash` recomputed over the exact presented bytes,
 * then `nonce`, `aud` and `iat` freshness.
 */
export async function verifyKeyBinding(options: VerifyKeyBindingOptions): Promise<VerifyKeyBindingResult> {
  const id = options.credentialQueryId;
  const invalid = (reason: string): VerifyKeyBindingResult => ({
    ok: false,
    failure: failure(
      CheckRow.KEY_BINDING,
      'KEY_BINDING_INVALID',
      `The key binding JWT of credential query "${id}" is invalid: ${reason}.`,
    ),
  });
  if (!options.kbJwt) {
    if (options.required) return invalid('holder binding is required but the presentation has no KB-JWT');
    return { ok: true, holderBinding: false };
  }
  const cnf = options.issuerPayload.cnf;
  const holderJwk = typeof cnf === 'object' && cnf !== null ? (cnf as { jwk?: unknown }).jwk : undefined;
  if (typeof holderJwk !== 'object' || holderJwk === null) return invalid('the credential has no cnf.jwk holder key');

  let payload: Record<string, unknown>;
  try {
    const kb = decodeJws(options.kbJwt);
    const { header } = kb;
    payload = kb.payload;
    if (header.typ !== 'kb+jwt') throw new Error(`typ is ${JSON.stringify(header.typ ?? null)}`);
    // Falsy counts as missing (an `iat` of 0 too), as @sd-jwt/core's verifyKB had it.
    for (const claim of ['iat', 'aud', 'nonce', 'sd_hash']) if (!payload[claim]) throw new Error(`${claim} is missing`);
    // The holder's key, imported once for this presentation and verified with as it is.
    const holderKey = createPublicKey({ key: holderJwk as JWK & Record<string, string>, format: 'jwk' });
    await verifyDecodedJwsSignature(kb, holderKey);
  } catch (error) {
    return invalid(
      `typ must be kb+jwt with iat, aud, nonce and sd_hash, signed by the cnf key (${describeError(error)})`,
    );
  }
  // Over the bytes as presented. checkVpTokenShape refused anything but ASCII, so
  // UTF-8 is those bytes; the check here keeps a lossy encoding from ever being hashed.
  if (!isAscii(options.sdHashInput)) return invalid('the presentation is not ASCII');
  const expectedSdHash = createHash(options.sdAlg.replace('-', ''))
    .update(Buffer.from(options.sdHashInput, 'utf8'))
    .digest('base64url');
  if (payload.sd_hash !== expectedSdHash) return invalid('sd_hash does not match the presented SD-JWT');

  if (payload.nonce !== options.nonce) {
    return {
      ok: false,
      failure: failure(
        CheckRow.NONCE,
        'NONCE_MISMATCH',
        `The key binding JWT of credential query "${id}" carries a nonce other than the session's.`,
      ),
    };
  }
  if (!audienceMatches(payload.aud, options.audience)) {
    return {
      ok: false,
      failure: failure(
        CheckRow.AUDIENCE,
        'AUDIENCE_MISMATCH',
        `The key binding JWT of credential query "${id}" is addressed to ${JSON.stringify(payload.aud)}, not ${JSON.stringify(options.audience)}.`,
      ),
    };
  }
  const nowSeconds = Math.floor(options.now.getTime() / 1000);
  const iat = payload.iat;
  if (typeof iat !== 'number' || !Number.isFinite(iat)) return stale(id, 'its iat is not a number');
  if (iat > nowSeconds + options.clockSkewSeconds) return stale(id, 'it was issued in the future');
  if (iat < nowSeconds - options.kbMaxAgeSeconds)
    return stale(id, `it is older than ${options.kbMaxAgeSeconds} seconds`);
  return { ok: true, holderBinding: true, payload };
}

function stale(id: string, reason: string): VerifyKeyBindingResult {
  return {
    ok: false,
    failure: failure(
      CheckRow.KEY_BINDING_AGE,
      'KEY_BINDING_STALE',
      `The key binding JWT of credential query "${id}" is not fresh: ${reason}.`,
    ),
  };
}

/** `aud` is a single string in a KB-JWT; a one-element array naming an expected audience is tolerated. */
function audienceMatches(aud: unknown, expected: string | readonly string[]): boolean {
  const accepted: readonly string[] = typeof expected === 'string' ? [expected] : expected;
  if (typeof aud === 'string') return accepted.includes(aud);
  return Array.isArray(aud) && aud.length === 1 && typeof aud[0] === 'string' && accepted.includes(aud[0]);
}

function isAscii(text: string): boolean {
  return !/[\u0080-\uffff]/.test(text);
}
