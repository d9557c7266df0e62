import type { IntentTemplateCreateBody } from '@tessera/contracts';
import { badRequest, type MessageBus, type Principal } from '@tessera/service-kit';
import { insertIntentTemplate } from '../db/intent-templates.js';
import type { IntentTemplateRow } from '../db/schema.js';
import { isActiveParticipant } from '../db/standing.js';
import { isConflict, type EcosystemDb } from '../db/types.js';
import { intentTemplateExists } from '../domain/errors.js';
import { checkVerificationTemplate } from './steps/check-verification-template.js';
import { authoriseIntent } from './steps/ecosystem-access.js';

export interface CreateIntentTemplateDeps {
  db: EcosystemDb;
  /** Reaches the verifier, which checks verifier-role templates. */
  bus: MessageBus;
}

export interface CreateIntentTemplateInput {
  principal: Principal;
  intentId: string;
  body: IntentTemplateCreateBody;
  requestId: string;
}

/**
 * `POST /v1/intent/{intentId}/template`: the lead maps a credential template to the
 * intent for a role, ecosystem-wide or as an override for the lead or an ACTIVE member.
 */
export async function createIntentTemplate(
  deps: CreateIntentTemplateDeps,
  input: CreateIntentTemplateInput,
): Promise<IntentTemplateRow> {
  const { intent } = await authoriseIntent(deps.db, input.principal, input.intentId, ['lead']);
  const { templateId, role, description, orgId } = input.body;
  if (orgId && !(await isActiveParticipant(deps.db, intent.ecosystemId, orgId))) {
    throw badRequest('An override must name the lead or an active member of the ecosystem.', [
      { path: '/orgId', message: `organisation ${orgId} is neither the lead nor an active member of this ecosystem` },
    ]);
  }
  if (role === 'verifier')
    await checkVerificationTemplate(deps, { ecosystemId: intent.ecosystemId, templateId, requestId: input.requestId });
  const created = await insertIntentTemplate(deps.db, {
    intentId: intent.id,
    templateId,
    role,
    description: description ?? null,
    orgId: orgId ?? null,
    userId: input.principal.sub,
  });
  if (isConflict(created)) throw intentTemplateExists();
  return created;
}
