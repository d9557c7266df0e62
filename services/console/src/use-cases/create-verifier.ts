import type { Verifier, CreateVerifierBody } from '@tessera/contracts';
import type { ServiceResult } from '../domain/service-problem.js';
import type { VerifierApi } from '../network/verifier-api.js';

export interface CreateVerifierDeps {
  verifier: Pick<VerifierApi, 'createVerifier'>;
}

/** A named requester of the organisation, with the display data wallets show. */
export function createVerifier(
  deps: CreateVerifierDeps,
  input: { token: string; orgId: string; body: CreateVerifierBody },
): Promise<ServiceResult<Verifier>> {
  return deps.verifier.createVerifier(input.token, input.orgId, input.body);
}
