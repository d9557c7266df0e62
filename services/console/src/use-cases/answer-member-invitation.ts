import type { Invitation } from '@tessera/contracts';
import type { ServiceResult } from '../domain/service-problem.js';
import type { EcosystemApi } from '../network/ecosystem-api.js';

export interface AnswerMemberInvitationDeps {
  ecosystem: Pick<EcosystemApi, 'answerInvitation'>;
}

/** The owner of an invited organisation accepts (it becomes an active member) or rejects. */
export function answerMemberInvitation(
  deps: AnswerMemberInvitationDeps,
  input: { token: string; ecosystemId: string; orgId: string; status: 'accepted' | 'rejected' },
): Promise<ServiceResult<Invitation>> {
  return deps.ecosystem.answerInvitation(input.token, {
    ecosystemId: input.ecosystemId,
    orgId: input.orgId,
    status: input.status,
  });
}
