import { StatusValue, type StatusListFormat } from '@tessera/contracts';
import { CheckRow, failure, type CheckFailure } from './check-order.js';
import type { IssuerTrust } from './issuer-key.js';
import type { ResolvedTrustStore } from './trust-store.js';
import type { VerifiedCredential } from './verified-credential.js';

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

/** The entry's value, and the form of the token it was read from. */
export type CheckStatusResult = { ok: true; status: number; format: StatusListFormat } | { ok: false; message: string };

/**
 * Where the engine reads a credential's status entry: the replica's checker
 * (`state/status-list-checker.ts`, which fetches and caches tokens and verifies
 * them with `verify-status-list-token.ts`), injected as `statusLists`. The engine
 * itself fetches nothing.
 */
export interface StatusListChecker {
  check(options: CheckStatusOptions): Promise<CheckStatusResult>;
}

/** What the result says of a checked status (the contracts' CredentialStatus, with the form always named). */
export interface CredentialStatus {
  uri: string;
  idx: number;
  status: 'VALID';
  /** The form of the Status List Token checked: `jwt` or `cwt`. */
  format: StatusListFormat;
}

export interface CheckCredentialStatusOptions {
  credential: VerifiedCredential;
  statusLists: StatusListChecker;
  trust: ResolvedTrustStore;
  now: Date;
  /** Tolerated clock difference on the token's `iat` and `ttl` (CLOCK_SKEW_SECONDS). */
  clockSkewSeconds: number;
}

export type CheckCredentialStatusResult =
  { ok: true; status?: CredentialStatus } | { ok: false; failure: CheckFailure };

/**
 * Row 15: a credential with `status.status_list {idx, uri}` (an SD-JWT VC's
 * `status` claim, an mdoc MSO's `status`; either may name a list of either form)
 * passes only when its entry is VALID. INVALID is a revocation, SUSPENDED a suspension, and any
 * other value (application-specific or reserved) is refused as revoked, since
 * only VALID may pass. A `status` this service cannot check is unavailable.
 */
export async function checkCredentialStatus(
  options: CheckCredentialStatusOptions,
): Promise<CheckCredentialStatusResult> {
  const { credential } = options;
  const id = credential.credentialQueryId;
  if (credential.status === undefined) return { ok: true };
  const unavailable = (reason: string): CheckCredentialStatusResult => ({
    ok: false,
    failure: failure(
      CheckRow.STATUS,
      'STATUS_LIST_UNAVAILABLE',
      `The status of credential query "${id}" cannot be checked: ${reason}.`,
    ),
  });
  const reference = (credential.status as { status_list?: { idx?: unknown; uri?: unknown } } | null)?.status_list;
  if (typeof reference !== 'object' || reference === null) return unavailable('it names no status_list');
  const { idx, uri } = reference;
  if (typeof uri !== 'string' || typeof idx !== 'number' || !Number.isSafeInteger(idx) || idx < 0)
    return unavailable('status_list needs a uri and a non-negative integer idx');
  const result = await options.statusLists.check({
    uri,
    idx,
    issuer: credential.issuerTrust,
    trust: options.trust,
    now: options.now,
    clockSkewSeconds: options.clockSkewSeconds,
  });
  if (!result.ok) return unavailable(result.message);
  if (result.status === StatusValue.VALID)
    return { ok: true, status: { uri, idx, status: 'VALID', format: result.format } };
  if (result.status === StatusValue.SUSPENDED) {
    return {
      ok: false,
      failure: failure(
        CheckRow.STATUS,
        'CREDENTIAL_SUSPENDED',
        `The credential of credential query "${id}" is suspended (status list ${uri}, index ${idx}).`,
      ),
    };
  }
  const what =
    result.status === StatusValue.INVALID
      ? 'revoked'
      : `not valid (status 0x${result.status.toString(16).padStart(2, '0')})`;
  return {
    ok: false,
    failure: failure(
      CheckRow.STATUS,
      'CREDENTIAL_REVOKED',
      `The credential of credential query "${id}" is ${what} (status list ${uri}, index ${idx}).`,
    ),
  };
}
