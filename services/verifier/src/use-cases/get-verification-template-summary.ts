import { ErrorCode } from '@tessera/contracts';
import { isUuid, notFound } from '@tessera/service-kit';
import type { TemplateRow } from '../db/schema.js';
import { findTemplateById } from '../db/templates.js';
import type { VerifierDb } from '../db/types.js';

/**
 * Any organisation's template, for the ecosystem service
 * (`verifier.v1.verification-template.get`): it checks a verifier-role intent
 * template names a real one. 404 VERIFICATION_TEMPLATE_NOT_FOUND otherwise.
 */
export async function getVerificationTemplateSummary(
  deps: { db: VerifierDb },
  input: { templateId: string },
): Promise<TemplateRow> {
  const row = isUuid(input.templateId) ? await findTemplateById(deps.db, { id: input.templateId }) : undefined;
  if (!row) throw notFound(`No verification template ${input.templateId}.`, ErrorCode.VERIFICATION_TEMPLATE_NOT_FOUND);
  return row;
}
