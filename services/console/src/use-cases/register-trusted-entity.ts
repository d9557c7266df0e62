import type { TrustedEntity, TrustedEntityCreateBody } from '@tessera/contracts';
import type { ServiceResult } from '../domain/service-problem.js';
import type { EcosystemApi } from '../network/ecosystem-api.js';

export interface RegisterTrustedEntityDeps {
  ecosystem: Pick<EcosystemApi, 'registerTrustedEntity'>;
}

/** The lead registers an issuer or verifier with its certificates in the ecosystem's trust registry. */
export function registerTrustedEntity(
  deps: RegisterTrustedEntityDeps,
  input: { token: string; ecosystemId: string; body: TrustedEntityCreateBody },
): Promise<ServiceResult<TrustedEntity>> {
  return deps.ecosystem.registerTrustedEntity(input.token, input.ecosystemId, input.body);
}
