import type { PageWindow } from '@tessera/service-kit';
import type { VerifierRow } from '../db/schema.js';
import type { VerifierDb } from '../db/types.js';
import { listVerifiers as listVerifierRows } from '../db/verifiers.js';

export interface ListVerifiersInput {
  orgId: string;
  page: PageWindow;
}

export interface ListVerifiersResult {
  rows: VerifierRow[];
  total: number;
}

/** A page of the organisation's verifiers, newest first. */
export function listVerifiers(deps: { db: VerifierDb }, input: ListVerifiersInput): Promise<ListVerifiersResult> {
  return listVerifierRows(deps.db, { orgId: input.orgId, limit: input.page.pageSize, offset: input.page.offset });
}
