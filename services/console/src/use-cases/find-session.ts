import type { PresentationSession } from '@tessera/contracts';
import type { ServiceResult } from '../domain/service-problem.js';
import type { VerifierApi } from '../network/verifier-api.js';

export interface FindSessionDeps {
  verifier: Pick<VerifierApi, 'getSession'>;
}

/** One session's record (for its QR code). */
export function findSession(
  deps: FindSessionDeps,
  input: { token: string; orgId: string; sessionId: string },
): Promise<ServiceResult<PresentationSession>> {
  return deps.verifier.getSession(input.token, input.orgId, input.sessionId);
}
