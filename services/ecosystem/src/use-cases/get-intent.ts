import type { Principal } from '@tessera/service-kit';
import type { IntentRow } from '../db/schema.js';
import type { EcosystemDb } from '../db/types.js';
import { authoriseIntent } from './steps/ecosystem-access.js';

export interface GetIntentDeps {
  db: EcosystemDb;
}

export interface GetIntentInput {
  principal: Principal;
  intentId: string;
}

/** `GET /v1/intent/{intentId}`: one intent, for the lead and members of its ecosystem. */
export async function getIntent(deps: GetIntentDeps, input: GetIntentInput): Promise<IntentRow> {
  const { intent } = await authoriseIntent(deps.db, input.principal, input.intentId, ['lead', 'member']);
  return intent;
}
