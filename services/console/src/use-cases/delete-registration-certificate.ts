import type { RegistrationCertificate } from '@tessera/contracts';
import type { ServiceResult } from '../domain/service-problem.js';
import type { VerifierApi } from '../network/verifier-api.js';

export interface DeleteRegistrationCertificateDeps {
  verifier: Pick<VerifierApi, 'deleteRegistrationCertificate'>;
}

/** Removes a verifier's registration certificate: its requests stop carrying `verifier_info`, nothing is judged. */
export function deleteRegistrationCertificate(
  deps: DeleteRegistrationCertificateDeps,
  input: { token: string; orgId: string; verifierId: string },
): Promise<ServiceResult<RegistrationCertificate>> {
  return deps.verifier.deleteRegistrationCertificate(input.token, input.orgId, input.verifierId);
}
