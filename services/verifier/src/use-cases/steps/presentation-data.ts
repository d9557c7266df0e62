import { openWithDataKey, PresentationDataUnreadableError, sealWithDataKey } from '../../crypto/data-key.js';
import { presentationDataContext, type PresentationDataColumn } from '../../crypto/sealing-contexts.js';
import type { PresentationResultRow } from '../../db/schema.js';
import type { PresentationResult, SealedOutcome, VerifiedOutcome } from '../../db/session-outcomes.js';
import type { DataKeyRing } from '../../state/data-key-ring.js';

// Shared step: presentation data sealed before it is stored, opened when it is
// read (README, Personal data). Each column is bound to its organisation,
// session and column name (AAD), so a ciphertext moved elsewhere — including
// between the full and the retained view of the same session — does not open.

export async function sealPresentationData(
  ring: DataKeyRing,
  input: {
    orgId: string;
    sessionId: string;
    outcome: VerifiedOutcome;
    retainedPresentations: Array<Record<string, unknown>> | null;
  },
): Promise<SealedOutcome> {
  const { orgId, sessionId, outcome, retainedPresentations } = input;
  const dataKey = await ring.dataKeyOf(orgId);
  const seal = (value: unknown, column: PresentationDataColumn) =>
    sealWithDataKey(dataKey, JSON.stringify(value), presentationDataContext(orgId, sessionId, column));
  return {
    presentations: seal(outcome.presentations, 'presentations'),
    credentialSets: outcome.credentialSets ? seal(outcome.credentialSets, 'credential_sets') : null,
    retainedPresentations: retainedPresentations ? seal(retainedPresentations, 'retained_presentations') : null,
  };
}

/**
 * The row's data in the clear, in the view the read may see (domain/presentation-data.ts,
 * `readablePresentationData`): `full` opens the presentations, `retained` the
 * retained ones. Throws PresentationDataUnreadableError when a sealed column does
 * not open (or the view's column is gone), KeyDecryptionError when the organisation's
 * data key does not. Rows stored before sealing (`sealed_presentations` null and
 * plain `presentations`) are answered as they are; they have no retained view.
 */
export async function openPresentationResult(
  ring: DataKeyRing,
  row: PresentationResultRow,
  view: 'full' | 'retained',
): Promise<PresentationResult> {
  const { sessionId, orgId, verifiedAt } = row;
  if (view === 'full' && row.sealedPresentations === null && row.presentations !== null) {
    return { sessionId, orgId, verifiedAt, presentations: row.presentations, credentialSets: row.credentialSets };
  }
  const column = view === 'full' ? 'presentations' : 'retained_presentations';
  const sealedPresentations = view === 'full' ? row.sealedPresentations : row.sealedRetainedPresentations;
  if (sealedPresentations === null)
    throw new PresentationDataUnreadableError(presentationDataContext(orgId, sessionId, column));
  const dataKey = await ring.dataKeyOf(orgId);
  const open = (sealed: string, column: PresentationDataColumn) =>
    JSON.parse(openWithDataKey(dataKey, sealed, presentationDataContext(orgId, sessionId, column))) as Array<
      Record<string, unknown>
    >;
  return {
    sessionId,
    orgId,
    verifiedAt,
    presentations: open(sealedPresentations, column),
    credentialSets: row.sealedCredentialSets === null ? null : open(row.sealedCredentialSets, 'credential_sets'),
  };
}
