import { orgsWithRole, requireOrgRole, type PageWindow, type Principal } from '@tessera/service-kit';
import { listEcosystemsOfOrgs, type EcosystemListRow } from '../db/ecosystems.js';
import type { EcosystemDb } from '../db/types.js';
import { MANAGING_ROLES } from '../domain/relation.js';

export interface ListEcosystemsDeps {
  db: EcosystemDb;
}

export interface ListEcosystemsInput {
  principal: Principal;
  /** One of the caller's organisations; absent: all where the caller is owner or admin. */
  orgId: string | undefined;
  window: PageWindow;
}

export interface ListEcosystemsResult {
  rows: EcosystemListRow[];
  total: number;
}

/** `GET /v1/ecosystem`: the ecosystems the caller's organisations lead or belong to, one entry each, newest first. */
export async function listEcosystems(
  deps: ListEcosystemsDeps,
  input: ListEcosystemsInput,
): Promise<ListEcosystemsResult> {
  if (input.orgId) requireOrgRole(input.principal, input.orgId, MANAGING_ROLES);
  const orgIds = input.orgId ? [input.orgId] : orgsWithRole(input.principal, MANAGING_ROLES);
  return listEcosystemsOfOrgs(deps.db, orgIds, input.window);
}
