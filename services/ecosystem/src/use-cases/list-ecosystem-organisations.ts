import type { PageWindow, Principal } from '@tessera/service-kit';
import { listActiveOrganisations, type ActiveOrganisationRow } from '../db/memberships.js';
import type { EcosystemDb } from '../db/types.js';
import { authoriseEcosystem } from './steps/ecosystem-access.js';

export interface ListEcosystemOrganisationsDeps {
  db: EcosystemDb;
}

export interface ListEcosystemOrganisationsInput {
  principal: Principal;
  ecosystemId: string;
  window: PageWindow;
}

export interface ListEcosystemOrganisationsResult {
  rows: ActiveOrganisationRow[];
  total: number;
}

/** `GET /v1/ecosystem/get-ecosystem-orgs`: the organisations that joined (ACTIVE, the lead's included), for lead and members. */
export async function listEcosystemOrganisations(
  deps: ListEcosystemOrganisationsDeps,
  input: ListEcosystemOrganisationsInput,
): Promise<ListEcosystemOrganisationsResult> {
  await authoriseEcosystem(deps.db, input.principal, input.ecosystemId, ['lead', 'member']);
  return listActiveOrganisations(deps.db, input.ecosystemId, input.window);
}
