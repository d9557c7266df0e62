import { isUuid } from '@tessera/service-kit';
import type { VerificationTemplateBody } from '@tessera/contracts';
import type { TemplateRow } from '../db/schema.js';
import { updateTemplate } from '../db/templates.js';
import type { VerifierDb } from '../db/types.js';
import type { Clock } from '../domain/clock.js';
import { verificationTemplateNotFound } from '../domain/errors.js';
import { readTemplateBody } from './steps/read-template-body.js';

export interface UpdateVerificationTemplateDeps {
  db: VerifierDb;
  clock: Clock;
}

export interface UpdateVerificationTemplateInput {
  orgId: string;
  templateId: string;
  body: VerificationTemplateBody;
}

/**
 * Replaces a template, also while sessions use it (each session keeps its own
 * copy of the query it sent); 404 for an unknown id, 400 INVALID_DCQL.
 */
export async function updateVerificationTemplate(
  deps: UpdateVerificationTemplateDeps,
  input: UpdateVerificationTemplateInput,
): Promise<TemplateRow> {
  if (!isUuid(input.templateId)) throw verificationTemplateNotFound();
  const row = await updateTemplate(deps.db, {
    ...readTemplateBody(input.body),
    orgId: input.orgId,
    id: input.templateId,
    now: deps.clock(),
  });
  if (!row) throw verificationTemplateNotFound();
  return row;
}
