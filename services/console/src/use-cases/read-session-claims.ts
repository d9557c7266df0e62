import type { PresentationResponse } from '@tessera/contracts';
import type { ServiceResult } from '../domain/service-problem.js';
import type { VerifierApi } from '../network/verifier-api.js';

export interface ReadSessionClaimsDeps {
  verifier: Pick<VerifierApi, 'readPresentationResponse'>;
}

/**
 * What a verified session proved, minimised to its query (`droppedClaims` lists what
 * the wallet disclosed beyond it). A read: the verifier records it in the read audit and
 * starts the read-once grace, so the console reads only when the person asks.
 */
export function readSessionClaims(
  deps: ReadSessionClaimsDeps,
  input: { token: string; orgId: string; sessionId: string },
): Promise<ServiceResult<PresentationResponse>> {
  return deps.verifier.readPresentationResponse(input.token, input.orgId, input.sessionId);
}
