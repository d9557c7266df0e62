// The lifecycle of verified sessions' presentation data (plain columns of
// `presentation_results` only: deadlines, claims state, purge time), read beside
// session records. Never a claim: nothing sealed is selected.
import { and, eq, inArray, sql } from 'drizzle-orm';
import type { StoredPresentationData } from '../domain/presentation-data.js';
import { presentationResults } from './schema.js';
import type { VerifierDb } from './types.js';

export interface PresentationDataLifecycleRow extends StoredPresentationData {
  sessionId: string;
  claimsPurgedAt: Date | null;
}

/** The lifecycles of the organisation's results among `sessionIds` (sessions without a result have none). */
export async function listPresentationDataLifecycles(
  db: VerifierDb,
  params: { orgId: string; sessionIds: string[] },
): Promise<PresentationDataLifecycleRow[]> {
  if (params.sessionIds.length === 0) return [];
  const r = presentationResults;
  const rows = await db
    .select({
      sessionId: r.sessionId,
      claimsState: r.claimsState,
      dataExpiresAt: r.dataExpiresAt,
      readExpiresAt: r.readExpiresAt,
      claimsPurgedAt: r.claimsPurgedAt,
      // Only whether a retained view is stored matters (domain/presentation-data.ts); its sealed text is never read.
      hasRetained: sql<boolean>`${r.sealedRetainedPresentations} is not null`,
    })
    .from(r)
    .where(and(eq(r.orgId, params.orgId), inArray(r.sessionId, params.sessionIds)));
  return rows.map(({ hasRetained, ...row }) => ({
    ...row,
    sealedRetainedPresentations: hasRetained ? 'stored' : null,
  }));
}
