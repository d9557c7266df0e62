import type { TrustListVisibility } from '@tessera/contracts';
import type { ServiceResult } from '../domain/service-problem.js';
import type { EcosystemApi } from '../network/ecosystem-api.js';

export interface SetTrustListVisibilityDeps {
  ecosystem: Pick<EcosystemApi, 'setTrustListVisibility'>;
}

/** The lead serves the signed list to anyone (public) or to lead and members only. */
export function setTrustListVisibility(
  deps: SetTrustListVisibilityDeps,
  input: { token: string; ecosystemId: string; visible: boolean },
): Promise<ServiceResult<TrustListVisibility>> {
  return deps.ecosystem.setTrustListVisibility(input.token, input.ecosystemId, input.visible);
}
