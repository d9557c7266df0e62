import type { Ecosystem, EcosystemCreateBody } from '@tessera/contracts';
import type { ServiceResult } from '../domain/service-problem.js';
import type { EcosystemApi } from '../network/ecosystem-api.js';

export interface FormEcosystemDeps {
  ecosystem: Pick<EcosystemApi, 'createEcosystem'>;
}

/** An organisation whose owner was invited to lead forms its ecosystem. */
export function formEcosystem(
  deps: FormEcosystemDeps,
  input: { token: string; orgId: string; body: EcosystemCreateBody },
): Promise<ServiceResult<Ecosystem>> {
  return deps.ecosystem.createEcosystem(input.token, input.orgId, input.body);
}
