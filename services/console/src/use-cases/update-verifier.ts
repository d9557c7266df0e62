import type { Verifier, UpdateVerifierBody } from '@tessera/contracts';
import type { ServiceResult } from '../domain/service-problem.js';
import type { VerifierApi } from '../network/verifier-api.js';

export interface UpdateVerifierDeps {
  verifier: Pick<VerifierApi, 'updateVerifier'>;
}

/** Replaces the verifier's client metadata (what wallets show). */
export function updateVerifier(
  deps: UpdateVerifierDeps,
  input: { token: string; orgId: string; verifierId: string; body: UpdateVerifierBody },
): Promise<ServiceResult<Verifier>> {
  return deps.verifier.updateVerifier(input.token, input.orgId, input.verifierId, input.body);
}
