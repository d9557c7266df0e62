import type { Organisation } from '@tessera/contracts';
import { succeeded, type ServiceResult } from '../domain/service-problem.js';
import type { EcosystemApi } from '../network/ecosystem-api.js';

export interface LoadDirectoryEntryDeps {
  ecosystem: Pick<EcosystemApi, 'getOrganisation'>;
}

/**
 * The organisation's directory entry (`GET /v1/organisations/{orgId}`, owners and
 * admins); `undefined` when it is not in the directory yet (404 ORGANISATION_NOT_FOUND).
 */
export async function loadDirectoryEntry(
  deps: LoadDirectoryEntryDeps,
  input: { token: string; orgId: string },
): Promise<ServiceResult<Organisation | undefined>> {
  const entry = await deps.ecosystem.getOrganisation(input.token, input.orgId);
  if (!entry.ok && entry.problem.code === 'ORGANISATION_NOT_FOUND') return succeeded(undefined);
  return entry;
}
