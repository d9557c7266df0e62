import type { TrustAnchorPurpose } from '@tessera/contracts';
import type { PageWindow } from '@tessera/service-kit';
import type { TrustAnchorRow } from '../db/schema.js';
import { listTrustAnchors as listTrustAnchorRows } from '../db/trust-anchors.js';
import type { VerifierDb } from '../db/types.js';

export interface ListTrustAnchorsInput {
  orgId: string;
  page: PageWindow;
  /** Only anchors of this purpose; absent: all. */
  purpose?: TrustAnchorPurpose;
}

export interface ListTrustAnchorsResult {
  rows: TrustAnchorRow[];
  total: number;
}

/** A page of the organisation's own anchors (the platform bundles are not listed), newest first. */
export function listTrustAnchors(
  deps: { db: VerifierDb },
  input: ListTrustAnchorsInput,
): Promise<ListTrustAnchorsResult> {
  return listTrustAnchorRows(deps.db, {
    orgId: input.orgId,
    limit: input.page.pageSize,
    offset: input.page.offset,
    ...(input.purpose ? { purpose: input.purpose } : {}),
  });
}
