import { isUuid } from '@tessera/service-kit';
import type { VerificationTemplateBody } from '@tessera/contracts';
import { updateTemplate } from '../db/templates.js';
import { verificationTemplateNotFound } from '../domain/errors.js';
import {
  readTemplateBody,
  savedTemplateOf,
  type ReadTemplateBodyDeps,
  type SavedTemplate,
} from './steps/read-template-body.js';

export type UpdateVerificationTemplateDeps = ReadTemplateBodyDeps;

export interface UpdateVerificationTemplateInput {
  orgId: string;
  templateId: string;
  body: VerificationTemplateBody;
}

/**
 * Replaces a template, also while sessions use it (each session keeps its own
 * copy of the query it sent); 404 for an unknown id, 400 INVALID_DCQL; a body
 * naming a `verifierId` is judged as on create. A replacement is whole: a
 * `verifierId` it does not name is no longer named.
 */
export async function updateVerificationTemplate(
  deps: UpdateVerificationTemplateDeps,
  input: UpdateVerificationTemplateInput,
): Promise<SavedTemplate> {
  if (!isUuid(input.templateId)) throw verificationTemplateNotFound();
  const read = await readTemplateBody(deps, input);
  const row = await updateTemplate(deps.db, {
    ...read.values,
    orgId: input.orgId,
    id: input.templateId,
    now: deps.clock(),
  });
  if (!row) throw verificationTemplateNotFound();
  return savedTemplateOf(row, read);
}
