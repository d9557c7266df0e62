import { compactVerify, decodeJwt, decodeProtectedHeader } from 'jose';
import { describeError } from './check-order.js';
import { checkStatusListSigner } from './check-status-list-signer.js';
import { findIssuerKey, JWS_ALGORITHMS, type IssuerTrust } from './issuer-key.js';
import type { ResolvedTrustStore } from './trust-store.js';

/** What a verified status list token says: its list, and the times its cached copy is judged by. */
export interface StatusListToken {
  bits: number;
  lst: string;
  iat: number;
  ttl?: number;
  exp?: number;
}

export interface VerifyStatusListTokenOptions {
  /** The URI the token was fetched from: its `sub` must name it. */
  uri: string;
  /** How the credential's issuer was trusted: the token must be signed by that issuer. */
  issuer: IssuerTrust;
  trust: ResolvedTrustStore;
  now: Date;
  /** Tolerated clock difference on `iat`, in milliseconds. */
  skewMs: number;
  /** OID of `id-kp-oauthStatusSigning` (`STATUS_LIST_SIGNING_EKU`); absent: only the issuer's own certificates sign lists. */
  statusSigningEku?: string;
}

/**
 * The Validation Rules of draft-ietf-oauth-status-list for one token: `typ`
 * statuslist+jwt, `sub` = the URI, a signature by the credential's issuer
 * (`check-status-list-signer.ts`), an `iat` (required, not in the future beyond
 * skew), an unexpired `exp` when present, a positive `ttl` when present, and a
 * `status_list` with `bits` and `lst`. Throws with a sentence naming the rule.
 */
export async function verifyStatusListToken(
  jwt: string,
  options: VerifyStatusListTokenOptions,
): Promise<StatusListToken> {
  const header = decodeProtectedHeader(jwt) as Record<string, unknown>;
  const payload = decodeJwt(jwt) as Record<string, unknown>;
  if (header.typ !== 'statuslist+jwt')
    throw new Error(`the token has typ ${JSON.stringify(header.typ ?? null)}, not statuslist+jwt`);
  if (payload.sub !== options.uri)
    throw new Error(`the token's sub ${JSON.stringify(payload.sub ?? null)} is not the status list URI`);
  const found = findIssuerKey({ header, iss: payload.iss });
  if (!found.ok) throw new Error(`the token's signing key cannot be established: ${found.message}`);
  await compactVerify(jwt, found.source.key, { algorithms: JWS_ALGORITHMS }).catch((error: unknown) => {
    throw new Error(`the token's signature is invalid (${describeError(error)})`);
  });
  const wrongSigner = await checkStatusListSigner({
    signer: found.source,
    issuer: options.issuer,
    trust: options.trust,
    now: options.now,
    ...(options.statusSigningEku ? { statusSigningEku: options.statusSigningEku } : {}),
  });
  if (wrongSigner) throw new Error(wrongSigner);
  const nowMs = options.now.getTime();
  const { iat, exp, ttl } = payload;
  // iat is REQUIRED (draft-ietf-oauth-status-list, Status List Token in JWT Format): without it a token's age is unknowable.
  if (typeof iat !== 'number' || !Number.isFinite(iat)) throw new Error('the token has no iat');
  if (iat * 1000 > nowMs + options.skewMs)
    throw new Error(`the token's iat ${new Date(iat * 1000).toISOString()} is in the future`);
  if (exp !== undefined && (typeof exp !== 'number' || exp * 1000 <= nowMs)) throw new Error('the token has expired');
  if (ttl !== undefined && (typeof ttl !== 'number' || !(ttl > 0)))
    throw new Error('the token has a ttl that is not a positive number');
  const list = payload.status_list as { bits?: unknown; lst?: unknown } | undefined;
  if (typeof list !== 'object' || list === null || typeof list.bits !== 'number' || typeof list.lst !== 'string') {
    throw new Error('the token has no status_list with bits and lst');
  }
  return {
    bits: list.bits,
    lst: list.lst,
    iat,
    ...(ttl !== undefined ? { ttl } : {}),
    ...(typeof exp === 'number' ? { exp } : {}),
  };
}
