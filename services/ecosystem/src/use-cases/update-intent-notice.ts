import type { IntentNoticeBody } from '@tessera/contracts';
import type { Principal } from '@tessera/service-kit';
import { insertNoticeVersion, nextNoticeVersion, type NoticeVersionView } from '../db/intent-notices.js';
import type { EcosystemDb } from '../db/types.js';
import { noticeNotFound } from '../domain/errors.js';
import { authoriseIntent } from './steps/ecosystem-access.js';

export interface UpdateIntentNoticeDeps {
  db: EcosystemDb;
}

export interface UpdateIntentNoticeInput {
  principal: Principal;
  intentId: string;
  body: IntentNoticeBody;
}

/**
 * `PUT /v1/intent/{intentId}/notice`: the lead or a member issues version n+1; every
 * version is kept. Simultaneous updates get distinct consecutive versions.
 */
export async function updateIntentNotice(
  deps: UpdateIntentNoticeDeps,
  input: UpdateIntentNoticeInput,
): Promise<NoticeVersionView> {
  const { intent } = await authoriseIntent(deps.db, input.principal, input.intentId, ['lead', 'member']);
  return deps.db.transaction(async (tx) => {
    const notice = await nextNoticeVersion(tx, intent.id);
    if (!notice) throw noticeNotFound();
    return insertNoticeVersion(tx, { notice, body: input.body, userId: input.principal.sub });
  });
}
