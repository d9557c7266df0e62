import type { IntentNotice } from '@tessera/contracts';
import type { NoticeVersionView } from '../db/intent-notices.js';

/** One version of a notice: its fields and the version's own metadata. */
export function presentNotice(view: NoticeVersionView): IntentNotice {
  return {
    id: view.id,
    intentId: view.intentId,
    version: view.version,
    createdBy: view.createdBy,
    createDateTime: view.createdAt.toISOString(),
    ...view.body,
  };
}
