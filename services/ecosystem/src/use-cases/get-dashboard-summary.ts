import type { DashboardSummary } from '@tessera/contracts';
import { requirePlatformAdmin, type Principal } from '@tessera/service-kit';
import { countDashboard } from '../db/ecosystems.js';
import type { EcosystemDb } from '../db/types.js';

export interface GetDashboardSummaryDeps {
  db: EcosystemDb;
}

export interface GetDashboardSummaryInput {
  principal: Principal;
}

/** `GET /v1/ecosystem/dashboard/summary`: platform-wide counts for the platform admin. */
export async function getDashboardSummary(
  deps: GetDashboardSummaryDeps,
  input: GetDashboardSummaryInput,
): Promise<DashboardSummary> {
  requirePlatformAdmin(input.principal);
  return countDashboard(deps.db);
}
