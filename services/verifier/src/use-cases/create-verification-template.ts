import { randomUUID } from 'node:crypto';
import type { VerificationTemplateBody } from '@tessera/contracts';
import type { TemplateRow } from '../db/schema.js';
import { insertTemplate } from '../db/templates.js';
import type { VerifierDb } from '../db/types.js';
import type { Clock } from '../domain/clock.js';
import { readTemplateBody } from './steps/read-template-body.js';

export interface CreateVerificationTemplateDeps {
  db: VerifierDb;
  clock: Clock;
}

export interface CreateVerificationTemplateInput {
  orgId: string;
  body: VerificationTemplateBody;
}

/** A new template; 400 INVALID_DCQL naming each problem of its query. */
export async function createVerificationTemplate(
  deps: CreateVerificationTemplateDeps,
  input: CreateVerificationTemplateInput,
): Promise<TemplateRow> {
  return insertTemplate(deps.db, {
    ...readTemplateBody(input.body),
    id: randomUUID(),
    orgId: input.orgId,
    now: deps.clock(),
  });
}
