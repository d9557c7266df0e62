import type { PageOf, VerificationTemplate } from '@tessera/contracts';
import type { ServiceResult } from '../domain/service-problem.js';
import type { VerifierApi } from '../network/verifier-api.js';

export interface LoadTemplatesDeps {
  verifier: Pick<VerifierApi, 'listTemplates'>;
}

/** The organisation's verification templates, a page at a time. */
export function loadTemplates(
  deps: LoadTemplatesDeps,
  input: { token: string; orgId: string; pageNumber: number },
): Promise<ServiceResult<PageOf<VerificationTemplate>>> {
  return deps.verifier.listTemplates(input.token, input.orgId, { pageNumber: input.pageNumber, pageSize: 20 });
}
