import type { Intent } from '@tessera/contracts';
import type { ServiceResult } from '../domain/service-problem.js';
import type { EcosystemApi } from '../network/ecosystem-api.js';

export interface CreateIntentDeps {
  ecosystem: Pick<EcosystemApi, 'createIntent'>;
}

/** The lead defines a named workflow of the ecosystem. */
export function createIntent(
  deps: CreateIntentDeps,
  input: { token: string; ecosystemId: string; name: string; description: string },
): Promise<ServiceResult<Intent>> {
  return deps.ecosystem.createIntent(input.token, input.ecosystemId, {
    name: input.name,
    description: input.description,
  });
}
