import type { Intent } from '@tessera/contracts';
import type { IntentRow } from '../db/schema.js';

export function presentIntent(row: IntentRow): Intent {
  return {
    id: row.id,
    ecosystemId: row.ecosystemId,
    name: row.name,
    description: row.description,
    createDateTime: row.createdAt.toISOString(),
    lastChangedDateTime: row.lastChangedAt.toISOString(),
    createdBy: row.createdBy,
    lastChangedBy: row.lastChangedBy,
  };
}
