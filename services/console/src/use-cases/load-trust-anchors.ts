import type { PageOf, TrustAnchor } from '@tessera/contracts';
import type { ServiceResult } from '../domain/service-problem.js';
import type { VerifierApi } from '../network/verifier-api.js';

export interface LoadTrustAnchorsDeps {
  verifier: Pick<VerifierApi, 'listTrustAnchors'>;
}

/** The issuers the organisation trusts (CA certificates and DIDs), a page at a time. */
export function loadTrustAnchors(
  deps: LoadTrustAnchorsDeps,
  input: { token: string; orgId: string; pageNumber: number },
): Promise<ServiceResult<PageOf<TrustAnchor>>> {
  return deps.verifier.listTrustAnchors(input.token, input.orgId, { pageNumber: input.pageNumber, pageSize: 20 });
}
