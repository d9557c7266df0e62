import type { PatchVerifierBody, Verifier } from '@tessera/contracts';
import type { ServiceResult } from '../domain/service-problem.js';
import type { VerifierApi } from '../network/verifier-api.js';

export interface UpdateVerifierDeps {
  verifier: Pick<VerifierApi, 'patchVerifier'>;
}

/** Changes the verifier's client metadata (what wallets show), and nothing else: its settings stay as they are. */
export function updateVerifier(
  deps: UpdateVerifierDeps,
  input: { token: string; orgId: string; verifierId: string; body: Pick<PatchVerifierBody, 'clientMetadata'> },
): Promise<ServiceResult<Verifier>> {
  return deps.verifier.patchVerifier(input.token, input.orgId, input.verifierId, input.body);
}
