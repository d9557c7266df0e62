import type { Principal } from '@tessera/service-kit';
import { listIntentTemplates as listIntentTemplateRows } from '../db/intent-templates.js';
import type { IntentTemplateRow } from '../db/schema.js';
import type { EcosystemDb } from '../db/types.js';
import { authoriseIntent } from './steps/ecosystem-access.js';

export interface ListIntentTemplatesDeps {
  db: EcosystemDb;
}

export interface ListIntentTemplatesInput {
  principal: Principal;
  intentId: string;
}

/** `GET /v1/intent/{intentId}/template`: every mapping of the intent, oldest first, for lead and members. */
export async function listIntentTemplates(
  deps: ListIntentTemplatesDeps,
  input: ListIntentTemplatesInput,
): Promise<IntentTemplateRow[]> {
  const { intent } = await authoriseIntent(deps.db, input.principal, input.intentId, ['lead', 'member']);
  return listIntentTemplateRows(deps.db, intent.id);
}
