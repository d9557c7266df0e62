import type { IntentTemplate, IntentTemplateUpdateBody } from '@tessera/contracts';
import type { ServiceResult } from '../domain/service-problem.js';
import type { EcosystemApi } from '../network/ecosystem-api.js';

export interface UpdateIntentTemplateDeps {
  ecosystem: Pick<EcosystemApi, 'updateIntentTemplate'>;
}

/** The lead changes a mapping's role or description. */
export function updateIntentTemplate(
  deps: UpdateIntentTemplateDeps,
  input: { token: string; intentId: string; intentTemplateId: string; body: IntentTemplateUpdateBody },
): Promise<ServiceResult<IntentTemplate>> {
  return deps.ecosystem.updateIntentTemplate(input.token, input.intentId, input.intentTemplateId, input.body);
}
