import type {
  CertificateKeyType,
  CreateCertificateSigningRequestBody,
  PendingCertificateSigningRequest,
} from '@tessera/contracts';
import type { ServiceResult } from '../domain/service-problem.js';
import type { VerifierApi } from '../network/verifier-api.js';

export interface RequestAccessCertificateDeps {
  verifier: Pick<VerifierApi, 'createCertificateSigningRequest'>;
}

/**
 * A certificate signing request for an access certificate: the verifier makes the key and
 * keeps it sealed, and answers the PKCS#10 request for the organisation to hand its CA. The
 * signer in force stays until the CA's chain is uploaded; a new request replaces a pending one.
 */
export function requestAccessCertificate(
  deps: RequestAccessCertificateDeps,
  input: { token: string; orgId: string; keyType: CertificateKeyType; body: CreateCertificateSigningRequestBody },
): Promise<ServiceResult<PendingCertificateSigningRequest>> {
  return deps.verifier.createCertificateSigningRequest(input.token, input.orgId, input.keyType, input.body);
}
