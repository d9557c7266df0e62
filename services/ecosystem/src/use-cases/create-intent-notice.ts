import { ErrorCode, type IntentNoticeBody } from '@tessera/contracts';
import { conflict, type Principal } from '@tessera/service-kit';
import { insertNotice, insertNoticeVersion, type NoticeVersionView } from '../db/intent-notices.js';
import { isConflict, type EcosystemDb } from '../db/types.js';
import { authoriseIntent } from './steps/ecosystem-access.js';

export interface CreateIntentNoticeDeps {
  db: EcosystemDb;
}

export interface CreateIntentNoticeInput {
  principal: Principal;
  intentId: string;
  body: IntentNoticeBody;
}

/** `POST /v1/intent/{intentId}/notice`: the lead gives the intent its consent notice, as version 1 (one notice per intent). */
export async function createIntentNotice(
  deps: CreateIntentNoticeDeps,
  input: CreateIntentNoticeInput,
): Promise<NoticeVersionView> {
  const { intent } = await authoriseIntent(deps.db, input.principal, input.intentId, ['lead']);
  return deps.db.transaction(async (tx) => {
    const notice = await insertNotice(tx, intent.id);
    if (isConflict(notice))
      throw conflict(
        ErrorCode.NOTICE_EXISTS,
        'This intent has a notice already: update it with PUT to issue a new version.',
      );
    return insertNoticeVersion(tx, { notice, body: input.body, userId: input.principal.sub });
  });
}
