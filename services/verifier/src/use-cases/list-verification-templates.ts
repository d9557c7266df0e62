import type { PageWindow } from '@tessera/service-kit';
import type { TemplateRow } from '../db/schema.js';
import { listTemplates } from '../db/templates.js';
import type { VerifierDb } from '../db/types.js';

export interface ListVerificationTemplatesInput {
  orgId: string;
  page: PageWindow;
}

export interface ListVerificationTemplatesResult {
  rows: TemplateRow[];
  total: number;
}

/** A page of the organisation's templates, newest first. */
export function listVerificationTemplates(
  deps: { db: VerifierDb },
  input: ListVerificationTemplatesInput,
): Promise<ListVerificationTemplatesResult> {
  return listTemplates(deps.db, { orgId: input.orgId, limit: input.page.pageSize, offset: input.page.offset });
}
