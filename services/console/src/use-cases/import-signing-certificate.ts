import type { CertificateKeyType, SigningCertificate } from '@tessera/contracts';
import type { ServiceResult } from '../domain/service-problem.js';
import type { VerifierApi } from '../network/verifier-api.js';

export interface ImportSigningCertificateDeps {
  verifier: Pick<VerifierApi, 'importSigningCertificate'>;
}

/**
 * The organisation signs its requests with its own chain: with the leaf's key (made
 * elsewhere), or — after a certificate signing request — the chain alone, whose leaf
 * must certify the key the verifier made for that request. A key passes through the
 * console to the verifier (which seals it) and is neither kept nor logged here.
 */
export function importSigningCertificate(
  deps: ImportSigningCertificateDeps,
  input: {
    token: string;
    orgId: string;
    keyType: CertificateKeyType;
    certificateChainPem: string;
    privateKeyPem?: string;
  },
): Promise<ServiceResult<SigningCertificate>> {
  return deps.verifier.importSigningCertificate(input.token, input.orgId, input.keyType, {
    certificateChainPem: input.certificateChainPem,
    ...(input.privateKeyPem !== undefined ? { privateKeyPem: input.privateKeyPem } : {}),
  });
}
