import type { EcosystemTrustPolicy, TrustPolicy } from '@tessera/contracts';
import type { ServiceResult } from '../domain/service-problem.js';
import type { EcosystemApi } from '../network/ecosystem-api.js';

export interface SetTrustPolicyDeps {
  ecosystem: Pick<EcosystemApi, 'setTrustPolicy'>;
}

/** The lead decides whom the ecosystem's intent-based sessions trust: the organisation's anchors, or the ecosystem's list only. */
export function setTrustPolicy(
  deps: SetTrustPolicyDeps,
  input: { token: string; ecosystemId: string; policy: TrustPolicy },
): Promise<ServiceResult<EcosystemTrustPolicy>> {
  return deps.ecosystem.setTrustPolicy(input.token, input.ecosystemId, input.policy);
}
