import type { TrustedEntity, TrustedEntityPatchBody } from '@tessera/contracts';
import type { ServiceResult } from '../domain/service-problem.js';
import type { EcosystemApi } from '../network/ecosystem-api.js';

export interface UpdateTrustedEntityDeps {
  ecosystem: Pick<EcosystemApi, 'updateTrustedEntity'>;
}

/** The lead renames an entity, changes its information address or its allowed credential types. */
export function updateTrustedEntity(
  deps: UpdateTrustedEntityDeps,
  input: { token: string; ecosystemId: string; entityId: string; body: TrustedEntityPatchBody },
): Promise<ServiceResult<TrustedEntity>> {
  return deps.ecosystem.updateTrustedEntity(input.token, input.ecosystemId, input.entityId, input.body);
}
