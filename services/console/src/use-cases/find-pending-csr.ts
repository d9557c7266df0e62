import type { CertificateKeyType, PendingCertificateSigningRequest } from '@tessera/contracts';
import { failed, succeeded, type ServiceResult } from '../domain/service-problem.js';
import type { VerifierApi } from '../network/verifier-api.js';

export interface FindPendingCsrDeps {
  verifier: Pick<VerifierApi, 'listSigningCertificates'>;
}

/** The certificate signing request of a key type waiting for its chain (to download its PEM); 404 when none. */
export async function findPendingCsr(
  deps: FindPendingCsrDeps,
  input: { token: string; orgId: string; keyType: CertificateKeyType },
): Promise<ServiceResult<PendingCertificateSigningRequest>> {
  const entries = await deps.verifier.listSigningCertificates(input.token, input.orgId);
  if (!entries.ok) return entries;
  const pending = entries.value.find((entry) => entry.keyType === input.keyType)?.pendingCsr;
  if (pending) return succeeded(pending);
  return failed({
    service: 'verifier',
    status: 404,
    code: 'NOT_FOUND',
    message: `No ${input.keyType} certificate signing request is waiting for its chain.`,
  });
}
