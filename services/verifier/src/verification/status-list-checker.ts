import { compactVerify, decodeJwt, decodeProtectedHeader } from 'jose';
import { describeError } from './check-order.js';
import { createStatusListFetch } from './create-status-list-fetch.js';
import { fetchStatusListToken } from './fetch-status-list-token.js';
import { checkIssuerTrust, findIssuerKey, JWS_ALGORITHMS, type IssuerTrust } from './issuer-key.js';
import { readStatusListEntry } from './read-status-list.js';
import type { ResolvedTrustStore } from './trust-store.js';

export interface CreateStatusListCheckerOptions {
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
  /** Cache lifetime when the token has neither `ttl` nor `exp`; default 300 s. */
  defaultCacheSeconds?: number;
  /** Upper bound on any cache lifetime, whatever `ttl` says; default 3600 s. */
  maxCacheSeconds?: number;
  /** Most tokens kept; the oldest entry goes first; default 500. */
  maxCacheEntries?: number;
  /** Refuse hosts on non-public addresses (`STATUS_LIST_DENY_PRIVATE_ADDRESSES`); default false here, the service's config decides. */
  denyPrivateAddresses?: boolean;
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
  /** How the credential's issuer was trusted: the token must be trusted the same way. */
  issuer: IssuerTrust;
  trust: ResolvedTrustStore;
  /** Verification time (also the cache clock). */
  now: Date;
}

export type CheckStatusResult = { ok: true; status: number } | { ok: false; message: string };

export interface StatusListChecker {
  check(options: CheckStatusOptions): Promise<CheckStatusResult>;
}

interface CachedToken {
  jwt: string;
  expiresAt: number;
}

/**
 * Status list look-ups (draft-ietf-oauth-status-list §8): fetch the token,
 * check `typ`, `sub` = the URI and `exp`, verify its signature with the same
 * trust as the credential's issuer (its own x5c chain to the same anchor, or
 * the issuer's DID key), then read entry `idx`. Verified tokens are cached per
 * URI until their `ttl`/`exp`; the signature and trust are re-checked on every
 * use, so a removed anchor takes effect at once.
 */
export function createStatusListChecker(options: CreateStatusListCheckerOptions = {}): StatusListChecker {
  const policy = { allowHttp: options.allowHttp ?? true, denyPrivateAddresses: options.denyPrivateAddresses ?? false, internalHosts: options.internalHosts ?? [] };
  const settings = {
    fetch: options.fetch ?? createStatusListFetch(policy),
    policy,
    timeoutMs: options.timeoutMs ?? 5000,
    maxBodyBytes: options.maxBodyBytes ?? 1024 * 1024,
    maxInflatedBytes: options.maxInflatedBytes ?? 16 * 1024 * 1024,
    defaultCacheSeconds: options.defaultCacheSeconds ?? 300,
    maxCacheSeconds: options.maxCacheSeconds ?? 3600,
    maxCacheEntries: options.maxCacheEntries ?? 500,
  };
  const cache = new Map<string, CachedToken>();

  return {
    async check(check) {
      const nowMs = check.now.getTime();
      try {
        const cached = cache.get(check.uri);
        const fresh = cached && cached.expiresAt > nowMs ? cached : undefined;
        if (cached && !fresh) cache.delete(check.uri);
        const jwt = fresh?.jwt ?? (await fetchStatusListToken({ ...settings, uri: check.uri }));
        const token = await verifyStatusListToken(jwt, check);
        if (!fresh) {
          const lifetime = Math.min(token.ttl ?? settings.defaultCacheSeconds, settings.maxCacheSeconds) * 1000;
          const expiresAt = Math.min(nowMs + lifetime, token.exp !== undefined ? token.exp * 1000 : Number.POSITIVE_INFINITY);
          if (cache.size >= settings.maxCacheEntries) cache.delete(cache.keys().next().value!);
          cache.set(check.uri, { jwt, expiresAt });
        }
        return { ok: true, status: readStatusListEntry({ lst: token.lst, bits: token.bits, idx: check.idx, maxInflatedBytes: settings.maxInflatedBytes }) };
      } catch (error) {
        return { ok: false, message: describeError(error) };
      }
    },
  };
}

async function verifyStatusListToken(jwt: string, check: CheckStatusOptions): Promise<{ bits: number; lst: string; ttl?: number; exp?: number }> {
  const header = decodeProtectedHeader(jwt) as Record<string, unknown>;
  const payload = decodeJwt(jwt) as Record<string, unknown>;
  if (header.typ !== 'statuslist+jwt') throw new Error(`the token has typ ${JSON.stringify(header.typ ?? null)}, not statuslist+jwt`);
  if (payload.sub !== check.uri) throw new Error(`the token's sub ${JSON.stringify(payload.sub ?? null)} is not the status list URI`);
  const found = findIssuerKey({ header, iss: payload.iss });
  if (!found.ok) throw new Error(`the token's signing key cannot be established: ${found.message}`);
  await compactVerify(jwt, found.source.key, { algorithms: JWS_ALGORITHMS }).catch((error: unknown) => {
    throw new Error(`the token's signature is invalid (${describeError(error)})`);
  });
  const trusted = await checkIssuerTrust({ source: found.source, trust: check.trust, now: check.now });
  if (!trusted.ok) throw new Error(`the token's signer is not trusted: ${trusted.message}`);
  if (!sameTrust(trusted.trust, check.issuer)) throw new Error('the token is not signed under the same trust as the credential issuer');
  const exp = payload.exp;
  if (exp !== undefined && (typeof exp !== 'number' || exp * 1000 <= check.now.getTime())) throw new Error('the token has expired');
  const list = payload.status_list as { bits?: unknown; lst?: unknown } | undefined;
  if (typeof list !== 'object' || list === null || typeof list.bits !== 'number' || typeof list.lst !== 'string') {
    throw new Error('the token has no status_list with bits and lst');
  }
  const ttl = typeof payload.ttl === 'number' && payload.ttl >= 0 ? payload.ttl : undefined;
  return { bits: list.bits, lst: list.lst, ...(ttl !== undefined ? { ttl } : {}), ...(typeof exp === 'number' ? { exp } : {}) };
}

function sameTrust(token: IssuerTrust, issuer: IssuerTrust): boolean {
  if (token.kind === 'did' && issuer.kind === 'did') return token.did === issuer.did;
  if (token.kind === 'certificate' && issuer.kind === 'certificate') return token.anchorFingerprint === issuer.anchorFingerprint;
  return false;
}
