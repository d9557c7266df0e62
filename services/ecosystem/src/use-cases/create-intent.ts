import type { IntentBody } from '@tessera/contracts';
import type { Principal } from '@tessera/service-kit';
import { changeIntentCount, insertIntent } from '../db/intents.js';
import type { IntentRow } from '../db/schema.js';
import { isConflict, type EcosystemDb } from '../db/types.js';
import { intentNameTaken } from '../domain/errors.js';
import { normaliseIntentBody } from '../domain/names.js';
import { authoriseEcosystem } from './steps/ecosystem-access.js';

export interface CreateIntentDeps {
  db: EcosystemDb;
}

export interface CreateIntentInput {
  principal: Principal;
  ecosystemId: string;
  body: IntentBody;
}

/**
 * `POST /v1/intent/ecosystem/{ecosystemId}`: the lead defines an intent. The
 * ecosystem's number of intents changes in the same transaction, so intent pages
 * need no count(*) (README, Intent pages).
 */
export async function createIntent(deps: CreateIntentDeps, input: CreateIntentInput): Promise<IntentRow> {
  const body = normaliseIntentBody(input.body);
  const { ecosystem } = await authoriseEcosystem(deps.db, input.principal, input.ecosystemId, ['lead']);
  return deps.db.transaction(async (tx) => {
    const intent = await insertIntent(tx, { ecosystemId: ecosystem.id, body, userId: input.principal.sub });
    if (isConflict(intent)) throw intentNameTaken(body.name);
    await changeIntentCount(tx, ecosystem.id, 1);
    return intent;
  });
}
