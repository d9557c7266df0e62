// Lifetimes of presentation data (issue 15). A verified result holds personal data
// (claim values) for a bounded time:
// - every claim until `data_expires_at` = verified_at + the shorter of
//   PRESENTATION_DATA_TTL_SECONDS and the session's `presentationDataTtlSeconds`;
// - claims whose query claim does not say `intent_to_retain: true` only until
//   `read_expires_at` = first successful read + PRESENTATION_READ_GRACE_SECONDS.
// The purge job deletes the values at those deadlines; reads apply the same
// deadlines themselves, so nothing is served after a deadline the purge has not
// reached yet, and decide it from the row's plain columns before anything is
// decrypted. Which claims are retained is the engine's selection
// (verification/retained-claims.ts). The claims are sealed (use-cases/steps/presentation-data.ts); the purge
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

/** The plain facts of a stored result a read is decided by (a `presentation_results` row has them). */
export interface StoredPresentationData {
  /** `full`, `retained` (the read grace ended) or `purged`. */
  claimsState: string;
  dataExpiresAt: Date;
  readExpiresAt: Date | null;
  /** Whether a retained view is stored: only its presence matters here. */
  sealedRetainedPresentations: string | null;
}

/**
 * Decided from the row's plain columns only (state, deadlines, whether a retained
 * view is stored), so a 410 never needs the data key. The same rule is the SQL
 * predicate of the audited read (db/presentation-reads.ts, READABLE): keep them together.
 */
export function readablePresentationData(result: StoredPresentationData, now: Date): ReadablePresentationData {
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
