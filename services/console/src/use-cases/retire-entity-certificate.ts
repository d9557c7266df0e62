import type { TrustedEntity } from '@tessera/contracts';
import type { ServiceResult } from '../domain/service-problem.js';
import type { EcosystemApi } from '../network/ecosystem-api.js';

export interface RetireEntityCertificateDeps {
  ecosystem: Pick<EcosystemApi, 'retireEntityCertificate'>;
}

/** The lead retires one certificate of an entity (it stays in the history). */
export function retireEntityCertificate(
  deps: RetireEntityCertificateDeps,
  input: { token: string; ecosystemId: string; entityId: string; certificateId: string },
): Promise<ServiceResult<TrustedEntity>> {
  return deps.ecosystem.retireEntityCertificate(input.token, input.ecosystemId, input.entityId, input.certificateId);
}
