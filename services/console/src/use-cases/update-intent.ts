import type { Intent } from '@tessera/contracts';
import type { ServiceResult } from '../domain/service-problem.js';
import type { EcosystemApi } from '../network/ecosystem-api.js';

export interface UpdateIntentDeps {
  ecosystem: Pick<EcosystemApi, 'updateIntent'>;
}

/** The lead renames or redescribes an intent. */
export function updateIntent(
  deps: UpdateIntentDeps,
  input: { token: string; intentId: string; name: string; description: string },
): Promise<ServiceResult<Intent>> {
  return deps.ecosystem.updateIntent(input.token, input.intentId, { name: input.name, description: input.description });
}
