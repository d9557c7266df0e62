import type { VerificationTemplate } from '@tessera/contracts';
import type { ServiceResult } from '../domain/service-problem.js';
import type { VerifierApi } from '../network/verifier-api.js';

export interface DeleteTemplateDeps {
  verifier: Pick<VerifierApi, 'deleteTemplate'>;
}

/** Deletes a template no open session uses. */
export function deleteTemplate(
  deps: DeleteTemplateDeps,
  input: { token: string; orgId: string; templateId: string },
): Promise<ServiceResult<VerificationTemplate>> {
  return deps.verifier.deleteTemplate(input.token, input.orgId, input.templateId);
}
