import { compactVerify, decodeJwt, decodeProtectedHeader } from 'jose';
import { describeError } from '../verification/check-order.js';
import { checkStatusListSigner } from '../verification/check-status-list-signer.js';
import { createStatusListFetch } from '../network/create-status-list-fetch.js';
import { fetchStatusListToken } from '../network/fetch-status-list-token.js';
import { findIssuerKey, JWS_ALGORITHMS, type IssuerTrust } from '../verification/issuer-key.js';
import { readStatusListEntry } from '../verification/read-status-list.js';
import type { ResolvedTrustStore } from '../verification/trust-store.js';

export interface CreateStatusListCheckerOptions {
  /** Where each fetch over HTTP (a cache miss) is counted and timed. */
  metrics?: { observeStatusListFetch<T>(fetch: () => Promise<T>): Promise<T> };
  /**
   * The transport (injected for tests); defaults to `createStatusListFetch`, which
   * connects only to addresses the policy allows. An injected fetch gets the URL rules
   * (scheme) but does its own name resolution.
   */
  fetch?: typeof globalThis.fetch;
  /** Whole-request timeout; default 5000 ms. */
  timeoutMs?: number;
  /** Largest token body accepted; default 1 MiB. */
  maxBodyBytes?: number;
  /** Largest decompressed status list accepted; default 16 MiB. */
  maxInflatedBytes?: number;
  /**
   * Longest a fetched token is used before it is fetched again, whatever its
   * `ttl` (`STATUS_LIST_MAX_CACHE_SECONDS`); also the lifetime of a token
   * without `ttl`. Default 300 s: a revocation is seen within min(ttl, this).
   */
  maxCacheSeconds?: number;
  /** Most tokens kept; the oldest entry goes first; default 500. */
  maxCacheEntries?: number;
  /** Refuse hosts on non-public addresses (`STATUS_LIST_DENY_PRIVATE_ADDRESSES`); default false here, the service's config decides. */
  denyPrivateAddresses?: boolean;
  /** OID of `id-kp-oauthStatusSigning` (`STATUS_LIST_SIGNING_EKU`); absent: only the issuer's own certificates sign lists. */
  statusSigningEku?: string;
  /** Fetch `http:` URIs (`STATUS_LIST_ALLOW_HTTP`); default true here, the service's config decides. */
  allowHttp?: boolean;
  /** Hosts exempt from the address rule (`STATUS_LIST_INTERNAL_HOSTS`), as `parseHostList` gives them. */
  internalHosts?: string[];
}

export interface CheckStatusOptions {
  /** `status.status_list.uri` of the credential. */
  uri: string;
  /** `status.status_list.idx` of the credential. */
  idx: number;
  /** How the credential's issuer was trusted: the token must be signed by that issuer (`check-status-list-signer.ts`). */
  issuer: IssuerTrust;
  trust: ResolvedTrustStore;
  /** Verification time (also the cache clock). */
  now: Date;
  /** Tolerated clock difference on `iat` and `ttl` (not on `exp`: an expired list is never used); default 60 s. */
  clockSkewSeconds?: number;
}

export type CheckStatusResult = { ok: true; status: number } | { ok: false; message: string };

export interface StatusListChecker {
  check(options: CheckStatusOptions): Promise<CheckStatusResult>;
}

interface CachedToken {
  jwt: string;
  /** When the cached copy must be fetched again (ms). */
  refetchAt: number;
}

interface StatusListToken {
  bits: number;
  lst: string;
  iat: number;
  ttl?: number;
  exp?: number;
}

/**
 * Status list look-ups (draft-ietf-oauth-status-list, Validation Rules):
 * fetch the token, check `typ`, `sub` = the URI, `iat` (required), `exp`, and
 * that the credential's issuer signed it, then read entry `idx`. A token
 * fetched afresh must itself be fresh: one older than its own `ttl` is a
 * stale copy the issuer should have replaced, and is refused. Verified tokens
 * are cached per URI for min(`ttl`, `maxCacheSeconds`) from the fetch, never
 * past `exp`, so a revocation is seen within that time; signature, signer and
 * `exp` are re-checked on every use, so a removed anchor applies at once.
 */
export function createStatusListChecker(options: CreateStatusListCheckerOptions = {}): StatusListChecker {
  const policy = {
    allowHttp: options.allowHttp ?? true,
    denyPrivateAddresses: options.denyPrivateAddresses ?? false,
    internalHosts: options.internalHosts ?? [],
  };
  const settings = {
    fetch: options.fetch ?? createStatusListFetch(policy),
    policy,
    timeoutMs: options.timeoutMs ?? 5000,
    maxBodyBytes: options.maxBodyBytes ?? 1024 * 1024,
    maxInflatedBytes: options.maxInflatedBytes ?? 16 * 1024 * 1024,
    maxCacheSeconds: options.maxCacheSeconds ?? 300,
    maxCacheEntries: options.maxCacheEntries ?? 500,
  };
  const cache = new Map<string, CachedToken>();

  return {
    async check(check) {
      const nowMs = check.now.getTime();
      const skewMs = (check.clockSkewSeconds ?? 60) * 1000;
      try {
        const cached = cache.get(check.uri);
        const fresh = cached && cached.refetchAt > nowMs ? cached : undefined;
        if (cached && !fresh) cache.delete(check.uri);
        const fetchToken = () => fetchStatusListToken({ ...settings, uri: check.uri });
        const jwt =
          fresh?.jwt ?? (await (options.metrics ? options.metrics.observeStatusListFetch(fetchToken) : fetchToken()));
        const token = await verifyStatusListToken(jwt, check, { skewMs, statusSigningEku: options.statusSigningEku });
        if (!fresh) {
          if (token.ttl !== undefined && (token.iat + token.ttl) * 1000 + skewMs < nowMs) {
            throw new Error(
              `the token was issued at ${new Date(token.iat * 1000).toISOString()} and is older than its ttl of ${token.ttl} s`,
            );
          }
          const lifetimeMs = Math.min(token.ttl ?? settings.maxCacheSeconds, settings.maxCacheSeconds) * 1000;
          const refetchAt = Math.min(
            nowMs + lifetimeMs,
            token.exp !== undefined ? token.exp * 1000 : Number.POSITIVE_INFINITY,
          );
          if (cache.size >= settings.maxCacheEntries) cache.delete(cache.keys().next().value!);
          cache.set(check.uri, { jwt, refetchAt });
        }
        return {
          ok: true,
          status: readStatusListEntry({
            lst: token.lst,
            bits: token.bits,
            idx: check.idx,
            maxInflatedBytes: settings.maxInflatedBytes,
          }),
        };
      } catch (error) {
        return { ok: false, message: describeError(error) };
      }
    },
  };
}

async function verifyStatusListToken(
  jwt: string,
  check: CheckStatusOptions,
  context: { skewMs: number; statusSigningEku: string | undefined },
): Promise<StatusListToken> {
  const header = decodeProtectedHeader(jwt) as Record<string, unknown>;
  const payload = decodeJwt(jwt) as Record<string, unknown>;
  if (header.typ !== 'statuslist+jwt')
    throw new Error(`the token has typ ${JSON.stringify(header.typ ?? null)}, not statuslist+jwt`);
  if (payload.sub !== check.uri)
    throw new Error(`the token's sub ${JSON.stringify(payload.sub ?? null)} is not the status list URI`);
  const found = findIssuerKey({ header, iss: payload.iss });
  if (!found.ok) throw new Error(`the token's signing key cannot be established: ${found.message}`);
  await compactVerify(jwt, found.source.key, { algorithms: JWS_ALGORITHMS }).catch((error: unknown) => {
    throw new Error(`the token's signature is invalid (${describeError(error)})`);
  });
  const wrongSigner = await checkStatusListSigner({
    signer: found.source,
    issuer: check.issuer,
    trust: check.trust,
    now: check.now,
    ...(context.statusSigningEku ? { statusSigningEku: context.statusSigningEku } : {}),
  });
  if (wrongSigner) throw new Error(wrongSigner);
  const nowMs = check.now.getTime();
  const { iat, exp, ttl } = payload;
  // iat is REQUIRED (draft-ietf-oauth-status-list, Status List Token in JWT Format): without it a token's age is unknowable.
  if (typeof iat !== 'number' || !Number.isFinite(iat)) throw new Error('the token has no iat');
  if (iat * 1000 > nowMs + context.skewMs)
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
