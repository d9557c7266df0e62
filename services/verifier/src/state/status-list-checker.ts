import { createStatusListFetch } from '../network/create-status-list-fetch.js';
import { fetchStatusListToken } from '../network/fetch-status-list-token.js';
import type { StatusListChecker } from '../verification/check-credential-status.js';
import { describeError } from '../verification/check-order.js';
import { readStatusListEntry } from '../verification/read-status-list.js';
import { verifyStatusListToken, type StatusListTokenBytes } from '../verification/verify-status-list-token.js';

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

interface CachedToken {
  /** The token as fetched, in its form (verified again on every use). */
  token: StatusListTokenBytes;
  /** When the cached copy must be fetched again (ms). */
  refetchAt: number;
}

/**
 * The replica's status list look-ups (the engine's `StatusListChecker`, one per app so
 * its token cache serves every verification), following draft-ietf-oauth-status-list's
 * Validation Rules: fetch the token over `network/` (a cache miss) in whichever form
 * the server has it (JWT or CWT), verify it (`verification/verify-status-list-token.ts`:
 * `typ`, `sub` = the URI, `iat`, `exp`, signed by the credential's issuer, the same rules
 * for both forms), then read entry `idx`. A token
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
        const fetched =
          fresh?.token ?? (await (options.metrics ? options.metrics.observeStatusListFetch(fetchToken) : fetchToken()));
        const token = await verifyStatusListToken(fetched, {
          uri: check.uri,
          issuer: check.issuer,
          trust: check.trust,
          now: check.now,
          skewMs,
          ...(options.statusSigningEku ? { statusSigningEku: options.statusSigningEku } : {}),
        });
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
          cache.set(check.uri, { token: fetched, refetchAt });
        }
        return {
          ok: true,
          format: token.format,
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
