import type { Verifier } from '@tessera/contracts';
import type { ServiceResult } from '../domain/service-problem.js';
import type { VerifierApi } from '../network/verifier-api.js';

export interface DeleteVerifierDeps {
  verifier: Pick<VerifierApi, 'deleteVerifier'>;
}

/** Deletes a verifier without open sessions. */
export function deleteVerifier(
  deps: DeleteVerifierDeps,
  input: { token: string; orgId: string; verifierId: string },
): Promise<ServiceResult<Verifier>> {
  return deps.verifier.deleteVerifier(input.token, input.orgId, input.verifierId);
}
