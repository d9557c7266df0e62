import { isUuid, type Principal } from '@tessera/service-kit';
import { deleteIntentTemplate as deleteIntentTemplateRow } from '../db/intent-templates.js';
import type { IntentTemplateRow } from '../db/schema.js';
import type { EcosystemDb } from '../db/types.js';
import { intentTemplateNotFound } from '../domain/errors.js';
import { authoriseIntent } from './steps/ecosystem-access.js';

export interface DeleteIntentTemplateDeps {
  db: EcosystemDb;
}

export interface DeleteIntentTemplateInput {
  principal: Principal;
  intentId: string;
  intentTemplateId: string;
}

/** `DELETE /v1/intent/{intentId}/template/{intentTemplateId}`: the lead removes a mapping of the intent. */
export async function deleteIntentTemplate(
  deps: DeleteIntentTemplateDeps,
  input: DeleteIntentTemplateInput,
): Promise<IntentTemplateRow> {
  const { intent } = await authoriseIntent(deps.db, input.principal, input.intentId, ['lead']);
  const id = input.intentTemplateId;
  const deleted = isUuid(id) ? await deleteIntentTemplateRow(deps.db, intent.id, id) : undefined;
  if (!deleted) throw intentTemplateNotFound();
  return deleted;
}
