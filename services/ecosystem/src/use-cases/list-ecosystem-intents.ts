import type { PageWindow, Principal } from '@tessera/service-kit';
import { listIntents } from '../db/intents.js';
import type { IntentRow } from '../db/schema.js';
import type { EcosystemDb } from '../db/types.js';
import { authoriseEcosystem } from './steps/ecosystem-access.js';

export interface ListEcosystemIntentsDeps {
  db: EcosystemDb;
}

export interface ListEcosystemIntentsInput {
  principal: Principal;
  ecosystemId: string;
  window: PageWindow;
}

export interface ListEcosystemIntentsResult {
  rows: IntentRow[];
  total: number;
}

/** `GET /v1/intent/ecosystem/{ecosystemId}`: a page of the ecosystem's intents for lead and members, newest first. */
export async function listEcosystemIntents(
  deps: ListEcosystemIntentsDeps,
  input: ListEcosystemIntentsInput,
): Promise<ListEcosystemIntentsResult> {
  const { ecosystem } = await authoriseEcosystem(deps.db, input.principal, input.ecosystemId, ['lead', 'member']);
  return listIntents(deps.db, ecosystem.id, input.window);
}
