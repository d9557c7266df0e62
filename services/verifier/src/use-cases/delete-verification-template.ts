import { ErrorCode } from '@tessera/contracts';
import { type Clock, conflict, isUuid } from '@tessera/service-kit';
import {
  countOpenSessionsOfTemplate,
  deleteTemplateRow,
  findTemplate,
  type TemplateWithVerifier,
} from '../db/templates.js';
import type { VerifierDb } from '../db/types.js';
import { verificationTemplateNotFound } from '../domain/errors.js';

export interface DeleteVerificationTemplateDeps {
  db: VerifierDb;
  clock: Clock;
}

export interface DeleteVerificationTemplateInput {
  orgId: string;
  templateId: string;
}

/** Deletes a template no open session (of any organisation) uses; 409 TEMPLATE_IN_USE otherwise. */
export async function deleteVerificationTemplate(
  deps: DeleteVerificationTemplateDeps,
  input: DeleteVerificationTemplateInput,
): Promise<TemplateWithVerifier> {
  const { orgId, templateId } = input;
  if (!isUuid(templateId)) throw verificationTemplateNotFound();
  return deps.db.transaction(async (tx) => {
    // FOR UPDATE: waits for session inserts holding FOR SHARE, so no session is created from a deleted template.
    const row = await findTemplate(tx, { orgId, id: templateId, lock: 'update' });
    if (!row) throw verificationTemplateNotFound();
    if ((await countOpenSessionsOfTemplate(tx, { templateId, now: deps.clock() })) > 0) {
      throw conflict(
        ErrorCode.TEMPLATE_IN_USE,
        'Open presentation sessions use this template; delete it after they are answered or expired.',
      );
    }
    await deleteTemplateRow(tx, { orgId, id: templateId });
    return row;
  });
}
