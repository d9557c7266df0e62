import { isUuid } from '@tessera/service-kit';
import { findTemplate, type TemplateWithVerifier } from '../db/templates.js';
import type { VerifierDb } from '../db/types.js';
import { verificationTemplateNotFound } from '../domain/errors.js';

export interface GetVerificationTemplateInput {
  orgId: string;
  templateId: string;
}

/** One template of the organisation; 404 VERIFICATION_TEMPLATE_NOT_FOUND otherwise (a non-UUID id included). */
export async function getVerificationTemplate(
  deps: { db: VerifierDb },
  input: GetVerificationTemplateInput,
): Promise<TemplateWithVerifier> {
  const row = isUuid(input.templateId)
    ? await findTemplate(deps.db, { orgId: input.orgId, id: input.templateId })
    : undefined;
  if (!row) throw verificationTemplateNotFound();
  return row;
}
