import type { DashboardSummary, Invitation, PageOf } from '@tessera/contracts';
import { allSucceeded, type ServiceResult } from '../domain/service-problem.js';
import type { EcosystemApi } from '../network/ecosystem-api.js';

export interface LoadPlatformAdminDeps {
  ecosystem: Pick<EcosystemApi, 'getDashboardSummary' | 'listLeadInvitations'>;
}

export interface PlatformAdmin {
  summary: DashboardSummary;
  invitations: PageOf<Invitation>;
}

/** The platform administrator's page: the counts, and the lead invitations this administrator sent. */
export async function loadPlatformAdmin(
  deps: LoadPlatformAdminDeps,
  input: { token: string; pageNumber: number },
): Promise<ServiceResult<PlatformAdmin>> {
  const loaded = allSucceeded(
    await Promise.all([
      deps.ecosystem.getDashboardSummary(input.token),
      deps.ecosystem.listLeadInvitations(input.token, { pageNumber: input.pageNumber, pageSize: 20 }),
    ] as const),
  );
  if (!loaded.ok) return loaded;
  const [summary, invitations] = loaded.value;
  return { ok: true, value: { summary, invitations } };
}
