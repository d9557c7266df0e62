import type { PresentationResultRow } from '../db/schema.js';
import type { ClaimsPathPattern } from '../verification/evaluate-dcql.js';
import { minimiseClaims, RETURNED_REGISTERED_CLAIMS } from '../verification/minimise-claims.js';

// Lifetimes of presentation data (issue 15). A verified result holds personal data
// (claim values) for a bounded time:
// - every claim until `data_expires_at` = verified_at + the shorter of
//   PRESENTATION_DATA_TTL_SECONDS and the session's `presentationDataTtlSeconds`;
// - claims whose query claim does not say `intent_to_retain: true` only until
//   `read_expires_at` = first successful read + PRESENTATION_READ_GRACE_SECONDS.
// The purge job deletes the values at those deadlines; reads apply the same
// deadlines themselves, so nothing is served after a deadline the purge has not
// reached yet, and decide it from the row's plain columns before anything is
// decrypted. The claims are sealed (use-cases/steps/presentation-data.ts); the purge
// only nulls the sealed columns (db/personal-data-purge.ts). What stays is the
// plain summary written at verification (`summarisePresentations`): what was
// verified, not what it said.

/** When every claim of a session verified at `verifiedAt` goes. */
export function presentationDataExpiresAt(params: {
  verifiedAt: Date;
  platformTtlSeconds: number;
  sessionTtlSeconds: number | null;
}): Date {
  const ttl =
    params.sessionTtlSeconds === null
      ? params.platformTtlSeconds
      : Math.min(params.platformTtlSeconds, params.sessionTtlSeconds);
  return new Date(params.verifiedAt.getTime() + ttl * 1000);
}

/**
 * The presentations with only the claims the relying party declared it keeps
 * (`intent_to_retain: true` on the query claim), or null when no query claim did.
 * SD-JWT registered claims (`iss`, `sub`, `iat`…) are not asked for by a query
 * claim, so they are read-once unless a retained path names them.
 */
export function retainedPresentations(
  dcqlQuery: Record<string, unknown>,
  presentations: Array<Record<string, unknown>>,
): Array<Record<string, unknown>> | null {
  const retainedPaths = new Map<string, ClaimsPathPattern[]>();
  for (const credential of asArray(dcqlQuery.credentials)) {
    if (!isObject(credential) || typeof credential.id !== 'string') continue;
    const paths = asArray(credential.claims)
      .filter(
        (claim): claim is Record<string, unknown> =>
          isObject(claim) && claim.intent_to_retain === true && Array.isArray(claim.path),
      )
      .map((claim) => claim.path as ClaimsPathPattern);
    if (paths.length > 0) retainedPaths.set(credential.id, paths);
  }
  if (retainedPaths.size === 0) return null;
  return presentations.map((presentation) => {
    const paths = retainedPaths.get(String(presentation.credentialQueryId)) ?? [];
    const format = presentation.format === 'mso_mdoc' ? 'mso_mdoc' : 'dc+sd-jwt';
    const claims = isObject(presentation.claims) ? presentation.claims : {};
    const kept =
      paths.length === 0 ? {} : minimiseClaims({ format, claims, selection: { kind: 'paths', paths } }).claims;
    if (format === 'dc+sd-jwt') {
      for (const name of Object.keys(kept)) {
        if (RETURNED_REGISTERED_CLAIMS.has(name) && !paths.some((path) => path[0] === name)) delete kept[name];
      }
    }
    return { ...presentation, claims: kept };
  });
}

/**
 * Fields of a verified presentation that say what was verified and how it was
 * trusted, never what it said: no `claims`, no `droppedClaims`, no `status`, no
 * validity dates. An allow-list, so a field added to VerifiedPresentation stays
 * out of the summary until someone decides it is not personal.
 */
const SUMMARY_FIELDS = [
  'credentialQueryId',
  'format',
  'vct',
  'doctype',
  'issuer',
  'holderBinding',
  'trustedEntityId',
  'trustedEntityName',
  'trustListSequence',
] as const;

/** The plain, non-personal summary of verified presentations stored beside the sealed data: it survives the purge. */
export function summarisePresentations(presentations: Array<Record<string, unknown>>): Array<Record<string, unknown>> {
  return presentations.map((presentation) => {
    const summary: Record<string, unknown> = {};
    for (const field of SUMMARY_FIELDS) if (presentation[field] !== undefined) summary[field] = presentation[field];
    return summary;
  });
}

/**
 * What a read finds, `now`: which stored view it may open — every verified claim
 * (`full`) or only the retained ones (`retained`) — or that the data is gone.
 */
export type ReadablePresentationData = { kind: 'available'; view: 'full' | 'retained' } | { kind: 'expired' };

/**
 * Decided from the row's plain columns only (state, deadlines, whether a retained
 * view is stored), so a 410 never needs the data key. The same rule is the SQL
 * predicate of the audited read (db/presentation-reads.ts, READABLE): keep them together.
 */
export function readablePresentationData(
  result: Pick<
    PresentationResultRow,
    'claimsState' | 'dataExpiresAt' | 'readExpiresAt' | 'sealedRetainedPresentations'
  >,
  now: Date,
): ReadablePresentationData {
  if (result.claimsState === 'purged' || result.dataExpiresAt.getTime() <= now.getTime()) return { kind: 'expired' };
  const hasRetained = result.sealedRetainedPresentations !== null;
  if (result.claimsState === 'retained')
    return hasRetained ? { kind: 'available', view: 'retained' } : { kind: 'expired' };
  if (result.readExpiresAt && result.readExpiresAt.getTime() <= now.getTime()) {
    // The grace ended but the purge has not come by yet: only the retained claims are left.
    return hasRetained ? { kind: 'available', view: 'retained' } : { kind: 'expired' };
  }
  return { kind: 'available', view: 'full' };
}

function asArray(value: unknown): unknown[] {
  return Array.isArray(value) ? value : [];
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
