import type { CreateTrustAnchorBody, TrustAnchor } from '@tessera/contracts';
import type { ServiceResult } from '../domain/service-problem.js';
import type { VerifierApi } from '../network/verifier-api.js';

export interface AddTrustAnchorDeps {
  verifier: Pick<VerifierApi, 'createTrustAnchor'>;
}

/** The organisation trusts an issuer: a CA certificate (PEM) or a DID, optionally for some credential types only. */
export function addTrustAnchor(
  deps: AddTrustAnchorDeps,
  input: { token: string; orgId: string; body: CreateTrustAnchorBody },
): Promise<ServiceResult<TrustAnchor>> {
  return deps.verifier.createTrustAnchor(input.token, input.orgId, input.body);
}
