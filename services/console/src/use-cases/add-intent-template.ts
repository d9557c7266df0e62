import type { IntentTemplate, IntentTemplateCreateBody } from '@tessera/contracts';
import type { ServiceResult } from '../domain/service-problem.js';
import type { EcosystemApi } from '../network/ecosystem-api.js';

export interface AddIntentTemplateDeps {
  ecosystem: Pick<EcosystemApi, 'addIntentTemplate'>;
}

/** The lead maps a credential template to the intent for a role, for every member or one organisation. */
export function addIntentTemplate(
  deps: AddIntentTemplateDeps,
  input: { token: string; intentId: string; body: IntentTemplateCreateBody },
): Promise<ServiceResult<IntentTemplate>> {
  return deps.ecosystem.addIntentTemplate(input.token, input.intentId, input.body);
}
