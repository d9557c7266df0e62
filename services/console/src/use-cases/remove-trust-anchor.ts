import type { TrustAnchor } from '@tessera/contracts';
import type { ServiceResult } from '../domain/service-problem.js';
import type { VerifierApi } from '../network/verifier-api.js';

export interface RemoveTrustAnchorDeps {
  verifier: Pick<VerifierApi, 'deleteTrustAnchor'>;
}

/** The organisation stops trusting an issuer; the next presentation under it is refused. */
export function removeTrustAnchor(
  deps: RemoveTrustAnchorDeps,
  input: { token: string; orgId: string; anchorId: string },
): Promise<ServiceResult<TrustAnchor>> {
  return deps.verifier.deleteTrustAnchor(input.token, input.orgId, input.anchorId);
}
