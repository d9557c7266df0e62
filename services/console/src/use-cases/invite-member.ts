import type { Invitation } from '@tessera/contracts';
import type { ServiceResult } from '../domain/service-problem.js';
import type { EcosystemApi } from '../network/ecosystem-api.js';

export interface InviteMemberDeps {
  ecosystem: Pick<EcosystemApi, 'inviteMember'>;
}

/** The lead invites an organisation (by its directory id) to join the ecosystem. */
export function inviteMember(
  deps: InviteMemberDeps,
  input: { token: string; ecosystemId: string; orgId: string },
): Promise<ServiceResult<Invitation>> {
  return deps.ecosystem.inviteMember(input.token, input.ecosystemId, input.orgId.trim());
}
