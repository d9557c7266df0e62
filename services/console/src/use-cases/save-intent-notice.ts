import type { IntentNotice } from '@tessera/contracts';
import { noticeBodyOfForm, type NoticeForm } from '../domain/notice-form.js';
import type { ServiceResult } from '../domain/service-problem.js';
import type { EcosystemApi } from '../network/ecosystem-api.js';

export interface SaveIntentNoticeDeps {
  ecosystem: Pick<EcosystemApi, 'createNotice' | 'updateNotice'>;
}

/** Writes the intent's consent notice: version 1 when it has none, else the next version. */
export function saveIntentNotice(
  deps: SaveIntentNoticeDeps,
  input: { token: string; intentId: string; form: Partial<NoticeForm>; exists: boolean },
): Promise<ServiceResult<IntentNotice>> {
  const body = noticeBodyOfForm(input.form);
  return input.exists
    ? deps.ecosystem.updateNotice(input.token, input.intentId, body)
    : deps.ecosystem.createNotice(input.token, input.intentId, body);
}
