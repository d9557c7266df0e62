import type { Principal } from '@tessera/service-kit';
import { findNoticeVersion, type NoticeVersionView } from '../db/intent-notices.js';
import type { EcosystemDb } from '../db/types.js';
import { noticeNotFound } from '../domain/errors.js';
import { authoriseIntent } from './steps/ecosystem-access.js';

export interface GetIntentNoticeDeps {
  db: EcosystemDb;
}

export interface GetIntentNoticeInput {
  principal: Principal;
  intentId: string;
  /** Absent: the latest version. */
  version: number | undefined;
}

/** `GET /v1/intent/{intentId}/notice`: a version of the intent's notice, for lead and members. */
export async function getIntentNotice(
  deps: GetIntentNoticeDeps,
  input: GetIntentNoticeInput,
): Promise<NoticeVersionView> {
  const { intent } = await authoriseIntent(deps.db, input.principal, input.intentId, ['lead', 'member']);
  const notice = await findNoticeVersion(deps.db, intent.id, input.version);
  if (!notice) throw noticeNotFound(input.version);
  return notice;
}
