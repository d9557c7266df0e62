import type { PageWindow } from '@tessera/service-kit';
import { listTemplates, type TemplateWithVerifier } from '../db/templates.js';
import type { VerifierDb } from '../db/types.js';

export interface ListVerificationTemplatesInput {
  orgId: string;
  page: PageWindow;
}

export interface ListVerificationTemplatesResult {
  rows: TemplateWithVerifier[];
  total: number;
}

/** A page of the organisation's templates, newest first. */
export function listVerificationTemplates(
  deps: { db: VerifierDb },
  input: ListVerificationTemplatesInput,
): Promise<ListVerificationTemplatesResult> {
  return listTemplates(deps.db, { orgId: input.orgId, limit: input.page.pageSize, offset: input.page.offset });
}
