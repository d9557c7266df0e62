import type { IntentBody } from '@tessera/contracts';
import type { Principal } from '@tessera/service-kit';
import { updateIntent as updateIntentRow } from '../db/intents.js';
import type { IntentRow } from '../db/schema.js';
import { isConflict, type EcosystemDb } from '../db/types.js';
import { intentNameTaken, intentNotFound } from '../domain/errors.js';
import { normaliseIntentBody } from '../domain/names.js';
import { authoriseIntent } from './steps/ecosystem-access.js';

export interface UpdateIntentDeps {
  db: EcosystemDb;
}

export interface UpdateIntentInput {
  principal: Principal;
  intentId: string;
  body: IntentBody;
}

/** `PUT /v1/intent/{intentId}`: the lead replaces an intent's name and description. */
export async function updateIntent(deps: UpdateIntentDeps, input: UpdateIntentInput): Promise<IntentRow> {
  const body = normaliseIntentBody(input.body);
  const { intent } = await authoriseIntent(deps.db, input.principal, input.intentId, ['lead']);
  const updated = await updateIntentRow(deps.db, { id: intent.id, body, userId: input.principal.sub });
  if (!updated) throw intentNotFound();
  if (isConflict(updated)) throw intentNameTaken(body.name);
  return updated;
}
