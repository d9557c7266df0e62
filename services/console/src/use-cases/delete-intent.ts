import type { Intent } from '@tessera/contracts';
import type { ServiceResult } from '../domain/service-problem.js';
import type { EcosystemApi } from '../network/ecosystem-api.js';

export interface DeleteIntentDeps {
  ecosystem: Pick<EcosystemApi, 'deleteIntent'>;
}

/** The lead deletes an intent without templates or notice. */
export function deleteIntent(
  deps: DeleteIntentDeps,
  input: { token: string; intentId: string },
): Promise<ServiceResult<Intent>> {
  return deps.ecosystem.deleteIntent(input.token, input.intentId);
}
