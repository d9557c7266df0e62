import type { PageOf, Verifier } from '@tessera/contracts';
import type { ServiceResult } from '../domain/service-problem.js';
import type { VerifierApi } from '../network/verifier-api.js';

export interface LoadVerifiersDeps {
  verifier: Pick<VerifierApi, 'listVerifiers'>;
}

/** The organisation's verifiers, a page at a time. */
export function loadVerifiers(
  deps: LoadVerifiersDeps,
  input: { token: string; orgId: string; pageNumber: number },
): Promise<ServiceResult<PageOf<Verifier>>> {
  return deps.verifier.listVerifiers(input.token, input.orgId, { pageNumber: input.pageNumber, pageSize: 20 });
}
