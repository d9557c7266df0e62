import { openWithDataKey, sealWithDataKey } from '../../crypto/data-key.js';
import { presentationDataContext } from '../../crypto/sealing-contexts.js';
import type { PresentationResultRow } from '../../db/schema.js';
import type { PresentationResult, SealedOutcome, VerifiedOutcome } from '../../db/session-outcomes.js';
import type { DataKeyRing } from './data-key-ring.js';

// Shared step: presentation data sealed before it is stored, opened when it is
// read (README, Personal data). Each column is bound to its organisation,
// session and column name (AAD), so a ciphertext moved elsewhere does not open.

export async function sealPresentationData(ring: DataKeyRing, input: { orgId: string; sessionId: string; outcome: VerifiedOutcome }): Promise<SealedOutcome> {
  const { orgId, sessionId, outcome } = input;
  const dataKey = await ring.dataKeyOf(orgId);
  return {
    presentations: sealWithDataKey(dataKey, JSON.stringify(outcome.presentations), presentationDataContext(orgId, sessionId, 'presentations')),
    credentialSets: outcome.credentialSets ? sealWithDataKey(dataKey, JSON.stringify(outcome.credentialSets), presentationDataContext(orgId, sessionId, 'credential_sets')) : null,
  };
}

/**
 * The row's data in the clear. Throws PresentationDataUnreadableError when a
 * sealed column does not open, KeyDecryptionError when the organisation's data
 * key does not. Rows stored before sealing (`sealed_presentations` null) carry
 * plain JSON and are answered as they are.
 */
export async function openPresentationResult(ring: DataKeyRing, row: PresentationResultRow): Promise<PresentationResult> {
  const { sessionId, orgId, verifiedAt } = row;
  if (row.sealedPresentations === null) {
    return { sessionId, orgId, verifiedAt, presentations: row.presentations ?? [], credentialSets: row.credentialSets };
  }
  const dataKey = await ring.dataKeyOf(orgId);
  const open = (sealed: string, column: 'presentations' | 'credential_sets') =>
    JSON.parse(openWithDataKey(dataKey, sealed, presentationDataContext(orgId, sessionId, column))) as Array<Record<string, unknown>>;
  return {
    sessionId,
    orgId,
    verifiedAt,
    presentations: open(row.sealedPresentations, 'presentations'),
    credentialSets: row.sealedCredentialSets === null ? null : open(row.sealedCredentialSets, 'credential_sets'),
  };
}
