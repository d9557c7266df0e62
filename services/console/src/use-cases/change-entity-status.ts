import type { TrustedEntity, TrustedEntityStatusBody } from '@tessera/contracts';
import type { ServiceResult } from '../domain/service-problem.js';
import type { EcosystemApi } from '../network/ecosystem-api.js';

export interface ChangeEntityStatusDeps {
  ecosystem: Pick<EcosystemApi, 'changeEntityStatus'>;
}

/** The lead suspends, reactivates or withdraws (final) an entity, with the reason. */
export function changeEntityStatus(
  deps: ChangeEntityStatusDeps,
  input: { token: string; ecosystemId: string; entityId: string; body: TrustedEntityStatusBody },
): Promise<ServiceResult<TrustedEntity>> {
  return deps.ecosystem.changeEntityStatus(input.token, input.ecosystemId, input.entityId, input.body);
}
