import type { Ecosystem } from '@tessera/contracts';
import type { ServiceResult } from '../domain/service-problem.js';
import type { EcosystemApi } from '../network/ecosystem-api.js';

export interface InviteEcosystemLeadDeps {
  ecosystem: Pick<EcosystemApi, 'inviteLead'>;
}

/** The platform administrator invites a person (by e-mail) to lead a new ecosystem. */
export function inviteEcosystemLead(
  deps: InviteEcosystemLeadDeps,
  input: { token: string; email: string },
): Promise<ServiceResult<Ecosystem>> {
  return deps.ecosystem.inviteLead(input.token, input.email.trim());
}
