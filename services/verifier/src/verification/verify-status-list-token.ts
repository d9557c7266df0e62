import type { StatusListFormat } from '@tessera/contracts';
import { checkStatusListSigner } from './check-status-list-signer.js';
import type { IssuerTrust } from './issuer-key.js';
import type { OpenedStatusListToken, StatusListTokenBytes } from './opened-status-list-token.js';
import { openStatusListCwt } from './status-list-cwt.js';
import { openStatusListJwt } from './status-list-jwt.js';
import type { ResolvedTrustStore } from './trust-store.js';

export type { StatusListTokenBytes } from './opened-status-list-token.js';

/** What a verified status list token says: its list, and the times its cached copy is judged by. */
export interface StatusListToken {
  /** The form that was verified. */
  format: StatusListFormat;
  bits: number;
  /** `status_list.lst`: base64url text (JWT form) or the compressed bytes themselves (CWT form). */
  lst: string | Uint8Array;
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
 * The Validation Rules of draft-ietf-oauth-status-list for one token, the same for
 * both forms (each opened by its reader: `status-list-jwt.ts`, `status-list-cwt.ts`):
 * `typ` (statuslist+jwt; application/statuslist+cwt in the protected header), `sub` =
 * the URI, a signature by the credential's issuer (`check-status-list-signer.ts`), an
 * `iat` (required, not in the future beyond skew), an unexpired `exp` when present, a
 * positive `ttl` when present, and a status list with `bits` and `lst`. A JWT given as
 * a string is read as the JWT form. Throws with a sentence naming the rule.
 */
export async function verifyStatusListToken(
  token: string | StatusListTokenBytes,
  options: VerifyStatusListTokenOptions,
): Promise<StatusListToken> {
  const opened = openStatusListToken(token);
  const { claims } = opened;
  if (opened.typ !== opened.expectedTyp)
    throw new Error(`the token has typ ${JSON.stringify(opened.typ ?? null)}, not ${opened.expectedTyp}`);
  if (claims.sub !== options.uri)
    throw new Error(`the token's sub ${JSON.stringify(claims.sub ?? null)} is not the status list URI`);
  const found = opened.signer;
  if (!found.ok) throw new Error(`the token's signing key cannot be established: ${found.message}`);
  await opened.verifySignature(found.source.key);
  const wrongSigner = await checkStatusListSigner({
    signer: found.source,
    issuer: options.issuer,
    trust: options.trust,
    now: options.now,
    ...(options.statusSigningEku ? { statusSigningEku: options.statusSigningEku } : {}),
  });
  if (wrongSigner) throw new Error(wrongSigner);
  const nowMs = options.now.getTime();
  const { iat, exp, ttl } = claims;
  // iat is REQUIRED (draft-ietf-oauth-status-list, Status List Token in JWT/CWT Format): without it a token's age is unknowable.
  if (typeof iat !== 'number' || !Number.isFinite(iat)) throw new Error('the token has no iat');
  if (iat * 1000 > nowMs + options.skewMs)
    throw new Error(`the token's iat ${new Date(iat * 1000).toISOString()} is in the future`);
  if (exp !== undefined && (typeof exp !== 'number' || exp * 1000 <= nowMs)) throw new Error('the token has expired');
  if (ttl !== undefined && (typeof ttl !== 'number' || !(ttl > 0)))
    throw new Error('the token has a ttl that is not a positive number');
  const list = claims.statusList as { bits?: unknown; lst?: unknown } | undefined;
  const lstCarried = opened.lstEncoding === 'bytes' ? list?.lst instanceof Uint8Array : typeof list?.lst === 'string';
  if (typeof list !== 'object' || list === null || typeof list.bits !== 'number' || !lstCarried) {
    throw new Error(
      `the token has no status_list with bits and lst${opened.lstEncoding === 'bytes' ? ' (a byte string)' : ''}`,
    );
  }
  return {
    format: opened.format,
    bits: list.bits,
    lst: list.lst as string | Uint8Array,
    iat,
    ...(ttl !== undefined ? { ttl } : {}),
    ...(typeof exp === 'number' ? { exp } : {}),
  };
}

/** The token opened by its form's reader. */
function openStatusListToken(token: string | StatusListTokenBytes): OpenedStatusListToken {
  if (typeof token === 'string') return openStatusListJwt(token);
  if (token.format === 'cwt') return openStatusListCwt(token.bytes);
  return openStatusListJwt(Buffer.from(token.bytes).toString('utf8').trim());
}
