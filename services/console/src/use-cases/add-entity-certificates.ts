import type { TrustedEntity } from '@tessera/contracts';
import type { ServiceResult } from '../domain/service-problem.js';
import type { EcosystemApi } from '../network/ecosystem-api.js';

export interface AddEntityCertificatesDeps {
  ecosystem: Pick<EcosystemApi, 'addEntityCertificates'>;
}

/** The lead adds certificates to an entity (a successor CA before a rollover, say). */
export function addEntityCertificates(
  deps: AddEntityCertificatesDeps,
  input: { token: string; ecosystemId: string; entityId: string; pems: string[] },
): Promise<ServiceResult<TrustedEntity>> {
  return deps.ecosystem.addEntityCertificates(input.token, input.ecosystemId, input.entityId, input.pems);
}
