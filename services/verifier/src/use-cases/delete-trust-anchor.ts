import { ErrorCode } from '@tessera/contracts';
import { isUuid, notFound } from '@tessera/service-kit';
import type { TrustAnchorRow } from '../db/schema.js';
import { deleteTrustAnchor as deleteTrustAnchorRow } from '../db/trust-anchors.js';
import type { VerifierDb } from '../db/types.js';

export interface DeleteTrustAnchorInput {
  orgId: string;
  id: string;
}

/** Stops trusting an anchor (from the next verification on); returns what was deleted. */
export async function deleteTrustAnchor(
  deps: { db: VerifierDb },
  input: DeleteTrustAnchorInput,
): Promise<TrustAnchorRow> {
  const row = isUuid(input.id) ? await deleteTrustAnchorRow(deps.db, input) : undefined;
  if (!row) throw notFound('The organisation has no trust anchor with this id.', ErrorCode.NOT_FOUND);
  return row;
}
