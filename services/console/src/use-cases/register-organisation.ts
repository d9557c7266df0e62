import type { Organisation } from '@tessera/contracts';
import type { ServiceResult } from '../domain/service-problem.js';
import type { EcosystemApi } from '../network/ecosystem-api.js';

export interface RegisterOrganisationDeps {
  ecosystem: Pick<EcosystemApi, 'upsertOrganisation'>;
}

/** The organisation's owner names it in the platform's directory (needed before it leads or joins an ecosystem). */
export function registerOrganisation(
  deps: RegisterOrganisationDeps,
  input: { token: string; orgId: string; name: string },
): Promise<ServiceResult<Organisation>> {
  return deps.ecosystem.upsertOrganisation(input.token, input.orgId, input.name.trim());
}
