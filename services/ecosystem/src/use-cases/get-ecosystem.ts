import { orgsWithRole, type Principal } from '@tessera/service-kit';
import { listEcosystemsOfOrgs, type EcosystemListRow } from '../db/ecosystems.js';
import type { EcosystemDb } from '../db/types.js';
import { ecosystemNotFound } from '../domain/errors.js';
import { MANAGING_ROLES } from '../domain/relation.js';
import { authoriseEcosystem } from './steps/ecosystem-access.js';

export interface GetEcosystemDeps {
  db: EcosystemDb;
}

/**
 * `GET /v1/ecosystem/{ecosystemId}`: one ecosystem as `GET /v1/ecosystem` lists it (the
 * caller's role in it, the member count, the lead organisation), for its lead and
 * active members; to anyone else it does not exist (404 ECOSYSTEM_NOT_FOUND), as for
 * every read of an ecosystem.
 */
export async function getEcosystem(
  deps: GetEcosystemDeps,
  input: { principal: Principal; ecosystemId: string },
): Promise<EcosystemListRow> {
  await authoriseEcosystem(deps.db, input.principal, input.ecosystemId, ['lead', 'member']);
  const { rows } = await listEcosystemsOfOrgs(
    deps.db,
    orgsWithRole(input.principal, MANAGING_ROLES),
    { page: 1, pageSize: 1, offset: 0 },
    input.ecosystemId,
  );
  const [row] = rows;
  if (!row) throw ecosystemNotFound();
  return row;
}
