import type { IntentTemplate } from '@tessera/contracts';
import type { ServiceResult } from '../domain/service-problem.js';
import type { EcosystemApi } from '../network/ecosystem-api.js';

export interface RemoveIntentTemplateDeps {
  ecosystem: Pick<EcosystemApi, 'removeIntentTemplate'>;
}

/** The lead removes a mapping. */
export function removeIntentTemplate(
  deps: RemoveIntentTemplateDeps,
  input: { token: string; intentId: string; intentTemplateId: string },
): Promise<ServiceResult<IntentTemplate>> {
  return deps.ecosystem.removeIntentTemplate(input.token, input.intentId, input.intentTemplateId);
}
