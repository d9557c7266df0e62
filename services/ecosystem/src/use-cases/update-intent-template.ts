import type { IntentTemplateUpdateBody } from '@tessera/contracts';
import { isUuid, type MessageBus, type Principal } from '@tessera/service-kit';
import { findIntentTemplate, updateIntentTemplate as updateIntentTemplateRow } from '../db/intent-templates.js';
import type { IntentTemplateRow } from '../db/schema.js';
import { isConflict, type EcosystemDb } from '../db/types.js';
import { intentTemplateExists, intentTemplateNotFound } from '../domain/errors.js';
import { checkVerificationTemplate } from './steps/check-verification-template.js';
import { authoriseIntent } from './steps/ecosystem-access.js';

export interface UpdateIntentTemplateDeps {
  db: EcosystemDb;
  /** Reaches the verifier, which checks a template that becomes verifier-role. */
  bus: MessageBus;
}

export interface UpdateIntentTemplateInput {
  principal: Principal;
  intentId: string;
  intentTemplateId: string;
  body: IntentTemplateUpdateBody;
  requestId: string;
}

/**
 * `PUT /v1/intent/{intentId}/template/{intentTemplateId}`: the lead changes a mapping's
 * role and, when given, its description; `templateId` and `orgId` are fixed (README).
 */
export async function updateIntentTemplate(
  deps: UpdateIntentTemplateDeps,
  input: UpdateIntentTemplateInput,
): Promise<IntentTemplateRow> {
  const { intent } = await authoriseIntent(deps.db, input.principal, input.intentId, ['lead']);
  const id = input.intentTemplateId;
  const existing = isUuid(id) ? await findIntentTemplate(deps.db, intent.id, id) : undefined;
  if (!existing) throw intentTemplateNotFound();
  const { role, description } = input.body;
  if (role !== existing.role && role === 'verifier') {
    await checkVerificationTemplate(deps, {
      ecosystemId: intent.ecosystemId,
      templateId: existing.templateId,
      requestId: input.requestId,
    });
  }
  const updated = await updateIntentTemplateRow(deps.db, {
    intentId: intent.id,
    id,
    role,
    description,
    userId: input.principal.sub,
  });
  if (!updated) throw intentTemplateNotFound();
  if (isConflict(updated)) throw intentTemplateExists();
  return updated;
}
