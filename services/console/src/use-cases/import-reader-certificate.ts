import type { ReaderCertificate } from '@tessera/contracts';
import type { ServiceResult } from '../domain/service-problem.js';
import type { VerifierApi } from '../network/verifier-api.js';

export interface ImportReaderCertificateDeps {
  verifier: Pick<VerifierApi, 'importReaderCertificate'>;
}

/**
 * The organisation's own mdoc reader-authentication chain for its P-256 key (ISO/IEC
 * 18013-7 Annex C ReaderAuths). No key travels: the chain certifies the key in force.
 */
export function importReaderCertificate(
  deps: ImportReaderCertificateDeps,
  input: { token: string; orgId: string; certificateChainPem: string },
): Promise<ServiceResult<ReaderCertificate>> {
  return deps.verifier.importReaderCertificate(input.token, input.orgId, {
    certificateChainPem: input.certificateChainPem,
  });
}
