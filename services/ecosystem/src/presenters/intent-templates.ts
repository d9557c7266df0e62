import type { IntentTemplate } from '@tessera/contracts';
import type { IntentTemplateRow } from '../db/schema.js';

export function presentIntentTemplate(row: IntentTemplateRow): IntentTemplate {
  return {
    id: row.id,
    intentId: row.intentId,
    templateId: row.templateId,
    role: row.role,
    description: row.description,
    orgId: row.orgId,
    createDateTime: row.createdAt.toISOString(),
    createdBy: row.createdBy,
    lastChangedDateTime: row.lastChangedAt.toISOString(),
    lastChangedBy: row.lastChangedBy,
  };
}
