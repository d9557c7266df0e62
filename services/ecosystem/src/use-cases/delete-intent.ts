import { ErrorCode } from '@tessera/contracts';
import { conflict, type Principal } from '@tessera/service-kit';
import { changeIntentCount, countIntentDependents, deleteIntent as deleteIntentRow } from '../db/intents.js';
import type { IntentRow } from '../db/schema.js';
import { isConflict, type EcosystemDb } from '../db/types.js';
import { intentNotFound } from '../domain/errors.js';
import { authoriseIntent } from './steps/ecosystem-access.js';

export interface DeleteIntentDeps {
  db: EcosystemDb;
}

export interface DeleteIntentInput {
  principal: Principal;
  intentId: string;
}

const inUse = () =>
  conflict(ErrorCode.IN_USE, 'This intent still has intent templates or a notice: delete them first.');

/**
 * `DELETE /v1/intent/{intentId}`: the lead deletes an intent that has no templates and
 * no notice (409 IN_USE otherwise, never a database error). The foreign keys restrict
 * too, so a template added meanwhile still cannot be orphaned.
 */
export async function deleteIntent(deps: DeleteIntentDeps, input: DeleteIntentInput): Promise<IntentRow> {
  const { intent } = await authoriseIntent(deps.db, input.principal, input.intentId, ['lead']);
  return deps.db.transaction(async (tx) => {
    if ((await countIntentDependents(tx, intent.id)) > 0) throw inUse();
    const deleted = await deleteIntentRow(tx, intent.id);
    if (!deleted) throw intentNotFound();
    if (isConflict(deleted)) throw inUse();
    await changeIntentCount(tx, deleted.ecosystemId, -1);
    return deleted;
  });
}
