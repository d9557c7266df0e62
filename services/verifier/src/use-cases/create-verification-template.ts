import { randomUUID } from 'node:crypto';
import type { VerificationTemplateBody } from '@tessera/contracts';
import { insertTemplate } from '../db/templates.js';
import {
  readTemplateBody,
  savedTemplateOf,
  type ReadTemplateBodyDeps,
  type SavedTemplate,
} from './steps/read-template-body.js';

export type CreateVerificationTemplateDeps = ReadTemplateBodyDeps;

export interface CreateVerificationTemplateInput {
  orgId: string;
  body: VerificationTemplateBody;
}

/**
 * A new template; 400 INVALID_DCQL naming each problem of its query; with a `verifierId`, 404
 * VERIFIER_NOT_FOUND or 400 OVER_ASKING (judged against that verifier's registration certificate).
 */
export async function createVerificationTemplate(
  deps: CreateVerificationTemplateDeps,
  input: CreateVerificationTemplateInput,
): Promise<SavedTemplate> {
  const read = await readTemplateBody(deps, input);
  const row = await insertTemplate(deps.db, {
    ...read.values,
    id: randomUUID(),
    orgId: input.orgId,
    now: deps.clock(),
  });
  return savedTemplateOf(row, read);
}
